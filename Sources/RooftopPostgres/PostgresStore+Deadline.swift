import PostgresNIO
import RooftopStorage

extension PostgresStore {
    /// Runs `body` on a pooled connection, failing with `StorageError.unavailable` after
    /// `timeout`: while the database is unreachable, the pool waits for a connection forever,
    /// and a request must get Parse's 500 instead.
    func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await withDeadline(timeout) { try await self.client.withConnection { connection in try await body(connection) } }
        } catch let error as PSQLError {
            throw Self.storageError(error)
        }
    }

    /// The rows of one query, decoded on the connection.
    func query<T: Sendable>(_ query: PostgresQuery, _ transform: @escaping @Sendable (PostgresRow) throws -> T) async throws -> [T] {
        try await leased { [logger] connection in
            var result: [T] = []
            for try await row in try await connection.query(query, logger: logger) { result.append(try transform(row)) }
            return result
        }
    }
}

/// `body`'s result, or `StorageError.unavailable` once `timeout` has passed (`body` is cancelled).
func withDeadline<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw StorageError.unavailable("PostgreSQL did not answer within \(timeout)")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw StorageError.unavailable("no answer") }
        return first
    }
}
