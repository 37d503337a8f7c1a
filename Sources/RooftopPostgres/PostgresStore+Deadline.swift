import PostgresNIO
import RooftopStorage

extension PostgresStore {
    /// Runs `body` on a connection, failing with `StorageError.unavailable` after `timeout`
    /// (a slow statement or a database that does not answer), or within about `connectWait`
    /// when the database refuses connections (see `connected`).
    func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let gauge = gauge
        let held = LockedValue(false)
        gauge.startWaiting()
        defer { gauge.finished(held: held.withLock { $0 }) }
        do {
            return try await withDeadline(timeout) {
                try await self.connected { connection in
                    held.withLock { $0 = true }
                    gauge.acquired()
                    return try await body(connection)
                }
            }
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

    /// `body` on a pooled connection.
    ///
    /// While the database refuses connections, the pool retries quietly with a growing back-off
    /// and its callers wait, each until the deadline. So a lease that has not come within
    /// `connectWait` (or that the pool gave up on) is checked with one direct connection:
    /// - refused: the database is down, fail now;
    /// - accepted after a refusal in the last minute: the pool may still be backing off (up to a
    ///   minute), so `body` runs on that connection and the node serves again at once;
    /// - accepted otherwise: the pool is only busy, keep waiting for it.
    ///
    /// `body` runs once: on whichever connection claims it first.
    private func connected<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let claim = LockedValue(Claim.open)
        return try await withThrowingTaskGroup(of: LeaseEvent<T>.self) { group in
            defer { group.cancelAll() }
            group.addTask {
                do {
                    return .value(
                        try await self.client.withConnection { connection in
                            guard claim.withLock({ $0.take(.pool) }) else { throw CancellationError() }
                            return try await body(connection)
                        })
                } catch {
                    // The body's own failure is the call's; anything before it is the pool's.
                    if claim.withLock({ $0 == .pool }) { throw error }
                    return .poolFailed
                }
            }
            group.addTask {
                try await Task.sleep(for: self.connectWait)
                return .slow
            }
            var checked = false
            while let event = try await group.next() {
                let poolFailed: Bool
                switch event {
                case .value(let value): return value
                case .poolFailed: poolFailed = true
                case .slow: poolFailed = false
                }
                if checked && !poolFailed { continue }
                if claim.withLock({ $0 == .pool }) { continue }
                checked = true
                let direct = try await directConnection()
                guard poolFailed || refusedRecently(), claim.withLock({ $0.take(.direct) }) else {
                    try? await direct.close()
                    continue
                }
                do {
                    let value = try await body(direct)
                    try? await direct.close()
                    return value
                } catch {
                    try? await direct.close()
                    throw error
                }
            }
            throw StorageError.unavailable("no PostgreSQL connection")
        }
    }

    /// A connection of its own, bounded by `connectWait`; a failure is remembered (see
    /// `refusedRecently`) and means the database is unavailable.
    private func directConnection() async throws -> PostgresConnection {
        do {
            return try await withDeadline(connectWait) { [url, logger] in
                try await PostgresConnection.connect(configuration: url.connection, id: 0, logger: logger)
            }
        } catch {
            refusedAt.withLock { $0 = .now }
            throw StorageError.unavailable("PostgreSQL refuses connections: \(Self.describe(error))")
        }
    }

    /// Whether a direct connection failed within the pool's longest back-off (a minute).
    private func refusedRecently() -> Bool {
        refusedAt.withLock { $0.map { ContinuousClock.now - $0 < .seconds(60) } ?? false }
    }
}

/// Which connection runs a call's body.
enum Claim: Sendable, Equatable {
    case open, pool, direct

    /// Claims the body for `owner`; false when another connection already has it.
    mutating func take(_ owner: Claim) -> Bool {
        guard self == .open else { return false }
        self = owner
        return true
    }
}

/// What a call's lease produced: the body's value, a pool that gave up before lending a
/// connection, or `connectWait` passing without one.
enum LeaseEvent<T: Sendable>: Sendable {
    case value(T)
    case poolFailed
    case slow
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
