package import Foundation
import Logging
import PostgresNIO
package import RooftopPostgres
import RooftopSQLite
package import RooftopStorage

/// The database the tests run against: SQLite by default, PostgreSQL when
/// `ROOFTOP_TEST_STORE=postgres` (`./scripts/test` runs the suites both ways). PostgreSQL tests
/// use the throwaway server named by `ROOFTOP_TEST_POSTGRES_URL`, a new database each.
package enum TestStores {
    /// Which backend this test run uses.
    package static var usePostgres: Bool { ProcessInfo.processInfo.environment["ROOFTOP_TEST_STORE"] == "postgres" }

    /// A store in `directory` (SQLite) or on a new database (PostgreSQL), its file store, and how
    /// to close it.
    package static func open(in directory: URL) async throws -> OpenStore {
        if usePostgres {
            let (store, task) = try await postgres()
            var opened = OpenStore(store: store) { task.cancel() }
            opened.files = PostgresFileStore(store: store)
            return opened
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: directory.appendingPathComponent("data.db").path)
        var opened = OpenStore(store: store) { try? store.close() }
        opened.files = try DiskFileStore(directory: directory.appendingPathComponent("files").path)
        return opened
    }

    /// The throwaway PostgreSQL server's URL.
    package static func postgresServerURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["ROOFTOP_TEST_POSTGRES_URL"] else {
            throw TestStoreError("set ROOFTOP_TEST_POSTGRES_URL (./scripts/test starts a PostgreSQL and sets it)")
        }
        return url
    }

    /// The first column of the first row of `sql` as an integer (run as in `execute`).
    package static func integer(database: String? = nil, _ sql: String) async throws -> Int {
        try await withAdminConnection(database) { connection in
            var value = 0
            for try await number in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: quiet).decode(Int64.self) {
                value = Int(number)
            }
            return value
        }
    }

    /// Runs one statement as the test server's superuser, on `database` (default: its own).
    package static func execute(database: String? = nil, _ sql: String) async throws {
        try await withAdminConnection(database) { connection in _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: quiet) }
    }

    /// A superuser connection to `database` (default: the server's own) for `body`, then closed.
    private static func withAdminConnection<T: Sendable>(
        _ database: String?, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let admin = try PostgresURL(try postgresServerURL(), poolSize: 1).configuration
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: admin.host ?? "127.0.0.1", port: admin.port ?? 5432, username: admin.username, password: admin.password,
                database: database ?? admin.database, tls: .disable),
            id: 2, logger: quiet)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The URL of a new, empty database on the test server.
    package static func freshPostgresDatabase() async throws -> String {
        let server = try postgresServerURL()
        let name = "rt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)")
        guard var components = URLComponents(string: server) else { throw TestStoreError("unreadable ROOFTOP_TEST_POSTGRES_URL") }
        components.path = "/" + name
        return components.string ?? server
    }

    /// A prepared PostgreSQL store on a new database, its pool running until the task is cancelled.
    /// `timeout` bounds every statement; the outage tests shorten it to wait less.
    package static func postgres(
        url: String? = nil, poolSize: Int = 8, timeout: Duration = .seconds(10)
    ) async throws -> (PostgresStore, Task<Void, any Error>) {
        let database: String
        if let url { database = url } else { database = try await freshPostgresDatabase() }
        // The default is long enough for a slow CI machine's first statements on a new database
        // (3 s was not: a CI run failed on it).
        let store = PostgresStore(url: try PostgresURL(database, poolSize: poolSize), logger: quiet, timeout: timeout)
        let task = Task { try await store.run() }
        do {
            try await store.prepare()
        } catch {
            task.cancel()
            throw error
        }
        return (store, task)
    }

    static var quiet: Logger {
        var logger = Logger(label: "test-store")
        logger.logLevel = .critical
        return logger
    }
}

/// A store opened for one test.
package struct OpenStore: Sendable {
    /// The store.
    package let store: any DataStore
    /// Closes it (SQLite: checkpoint and close; PostgreSQL: stop the pool).
    package let close: @Sendable () async -> Void
    /// The files beside it: `files/` in the directory (SQLite), the database's tables (PostgreSQL).
    package var files: (any FileStore)?

    /// Pairs a store with its closing.
    package init(store: any DataStore, close: @escaping @Sendable () async -> Void) {
        self.store = store
        self.close = close
    }
}

/// Why the test store could not be opened.
package struct TestStoreError: Error, CustomStringConvertible {
    /// What to fix.
    package let description: String
    init(_ description: String) { self.description = description }
}
