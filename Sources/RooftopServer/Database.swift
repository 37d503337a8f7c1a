import ArgumentParser
import Foundation
import Logging
import RooftopCore
import RooftopPostgres
import RooftopSQLite
import RooftopStorage

/// The database `rooftop serve` runs on: the embedded SQLite file in the data directory, or
/// PostgreSQL when `databaseURI` is set (several nodes may share it).
struct Database {
    let store: any DataStore
    let close: () async -> Void

    /// Runs `body` on the store, then closes the database whether `body` succeeded or not.
    func using<T>(_ body: (any DataStore) async throws -> T) async throws -> T {
        do {
            let value = try await body(store)
            await close()
            return value
        } catch {
            await close()
            throw error
        }
    }

    /// Opens (and migrates) the configured database; a refusal stops the start with its reason.
    static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> Database {
        guard let uri = configuration.databaseURI else {
            do {
                let store = try SQLiteStore(path: configuration.dataDir + "/data.db")
                return Database(store: store) { try? store.close() }
            } catch {
                throw ValidationError("cannot open the database in \(configuration.dataDir): \(error)")
            }
        }
        let url: PostgresURL
        do {
            url = try PostgresURL(uri, poolSize: configuration.databasePoolSize)
        } catch {
            throw ValidationError("databaseURI: \(error)")
        }
        let store = PostgresStore(url: url, logger: logger)
        let pool = Task { try await store.run() }
        do {
            try await store.prepare()
        } catch {
            pool.cancel()
            throw ValidationError("\(error)")
        }
        logger.info("database: PostgreSQL at \(url.redacted)")
        return Database(store: store) {
            pool.cancel()
            _ = try? await pool.value
        }
    }
}

/// `--data-dir` and `--database-url` of the commands that read an existing database while the
/// server may run (`audit`, `explain`).
struct ExistingDatabaseOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Data directory (default ./rooftop-data).") var dataDir = "./rooftop-data"
    @Option(name: .customLong("database-url"), help: "The PostgreSQL database (default: databaseURI from the environment, else SQLite).")
    var databaseURL: String?

    /// Opens the database; a missing SQLite file is a usage error, not a new empty database.
    func open(label: String) async throws -> Database {
        var configuration = ServerConfiguration()
        configuration.dataDir = dataDir
        let environment = ServerConfiguration.environmentValues(ProcessInfo.processInfo.environment)
        configuration.databaseURI = databaseURL ?? environment["databaseURI"]?.stringValue
        if configuration.databaseURI == nil, !FileManager.default.fileExists(atPath: dataDir + "/data.db") {
            throw ValidationError("no database at \(dataDir)/data.db")
        }
        var logger = Logger(label: label)
        logger.logLevel = .error
        return try await Database.open(configuration, logger: logger)
    }
}
