import ArgumentParser
import Foundation
import Logging
import NIOCore
import RooftopCore
import RooftopPostgres
import RooftopSQLite
import RooftopStorage
import ServiceLifecycle

/// The database `rooftop serve` runs on: the embedded SQLite file in the data directory, or
/// PostgreSQL when `databaseURI` is set (several nodes may share it).
struct Database: Sendable {
    let store: any DataStore
    /// Keeps PostgreSQL's connection pool and cache-bus listener running until cancelled; `nil`
    /// for SQLite, which needs nothing running.
    let pool: (@Sendable () async throws -> Void)?
    /// Connects and migrates (PostgreSQL; SQLite did both when it opened).
    let prepare: @Sendable () async throws -> Void
    /// Closes the database (SQLite checkpoints its write-ahead log).
    let close: @Sendable () async -> Void

    /// Runs `body` on the prepared store (its pool running in a child task for as long as `body`
    /// does), then closes the database whether `body` succeeded or not.
    func using<T>(_ body: (any DataStore) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let pool { group.addTask { try await pool() } }
            do {
                try await Self.refusal { try await prepare() }
                let value = try await body(store)
                group.cancelAll()
                await close()
                return value
            } catch {
                group.cancelAll()
                await close()
                throw error
            }
        }
    }

    /// A database that can't be used stops the command with its reason, not a stack of types.
    static func refusal(_ work: () async throws -> Void) async throws {
        do {
            try await work()
        } catch let error as StorageError {
            throw CommandFailure("database: \(error.cause)", status: CommandFailure.unavailable)
        }
    }

    /// Opens the configured database; PostgreSQL connects and migrates in `prepare`.
    static func open(_ configuration: ServerConfiguration, logger: Logger) throws -> Database {
        guard let uri = configuration.databaseURI else {
            do {
                // A point read finds a free inline reader on every loop, however many loops are set.
                let store = try SQLiteStore(
                    path: configuration.dataDir + "/data.db", inlineReaders: max(EventLoops.count(configuration), System.coreCount))
                return Database(store: store, pool: nil, prepare: {}, close: { try? store.close() })
            } catch {
                throw CommandFailure(
                    "cannot open the database \(configuration.dataDir)/data.db: \(error)", status: CommandFailure.inputOutput)
            }
        }
        let url: PostgresURL
        do {
            url = try PostgresURL(uri, poolSize: configuration.databasePoolSize)
        } catch {
            throw ConfigError("databaseURI: \(error)")
        }
        let store = PostgresStore(url: url, logger: logger)
        return Database(
            store: store, pool: { try await store.run() },
            prepare: {
                try await store.prepare()
                logger.info("database: PostgreSQL at \(url.redacted)")
            }, close: {})
    }
}

/// PostgreSQL's connection pool and listener as a member of the server's service group: they run
/// for as long as the group does and stop after the HTTP server, which comes later in the group
/// and so stops first. The database itself is closed once the whole group has returned, so no
/// request still running at a forced stop finds it closed.
struct DatabasePoolService: Service {
    let pool: @Sendable () async throws -> Void

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await pool() }
        } catch is CancellationError {
            // The stop: not a failure.
        }
    }
}

/// `--data-dir` and `--database-url` of the commands that read an existing database while the
/// server may run (`audit`, `explain`): the same flags as `serve`'s, from the table.
struct ExistingDatabaseOptions: ParsableArguments {
    @OptionGroup var location: DataDirectoryOption
    @Option(name: ConfigFlags.name("databaseURI"), help: ConfigFlags.help("databaseURI")) var databaseURL: String?

    /// Opens the database; a missing SQLite file is a usage error, not a new empty database.
    func open(label: String) throws -> Database {
        var configuration = ServerConfiguration()
        let dataDir = location.resolved()
        configuration.dataDir = dataDir
        let environment = ServerConfiguration.environmentValues(ProcessInfo.processInfo.environment)
        configuration.databaseURI = databaseURL ?? environment["databaseURI"]?.stringValue
        if configuration.databaseURI == nil, !FileManager.default.fileExists(atPath: dataDir + "/data.db") {
            throw CommandFailure(
                "no database at \(dataDir)/data.db: give the server's data directory with --data-dir", status: CommandFailure.noInput)
        }
        var logger = Logger(label: label)
        logger.logLevel = .error
        return try Database.open(configuration, logger: logger)
    }
}
