import Foundation
import GRDB
import RooftopPostgres
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

/// A database a newer `rooftop` migrated is refused, not run against with an older schema.
@Suite struct MigrationTests {
    /// A new SQLite database, migrated and closed: its directory (to remove) and file.
    func migratedSQLite() throws -> (URL, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("data.db").path
        try SQLiteStore(path: path).close()
        return (dir, path)
    }

    @Test func sqliteRefusesANewerDatabase() throws {
        let (dir, path) = try migratedSQLite()
        defer { try? FileManager.default.removeItem(at: dir) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_future')") }
        try queue.close()
        #expect {
            try SQLiteStore(path: path)
        } throws: { error in
            "\(error)".contains("migrated by a newer rooftop")
        }
    }

    @Test func postgresRefusesANewerDatabase() async throws {
        let url = try await TestStores.freshPostgresDatabase()
        let (_, task) = try await TestStores.postgres(url: url)
        defer { task.cancel() }
        let name = try #require(URLComponents(string: url)?.path.dropFirst())
        try await TestStores.execute(database: String(name), #"INSERT INTO "_MIGRATIONS" ("id") VALUES ('9999_future')"#)
        await #expect {
            _ = try await TestStores.postgres(url: url)
        } throws: { error in
            "\(error)".contains("migrated by a newer rooftop")
        }
    }

    /// Both databases record the same numbered steps.
    @Test func bothBackendsRunTheSameMigrations() async throws {
        let (dir, path) = try migratedSQLite()
        defer { try? FileManager.default.removeItem(at: dir) }
        let queue = try DatabaseQueue(path: path)
        let sqlite = try await queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        try queue.close()
        let url = try await TestStores.freshPostgresDatabase()
        let (_, task) = try await TestStores.postgres(url: url)
        defer { task.cancel() }
        let name = try #require(URLComponents(string: url)?.path.dropFirst()).description
        let count = try await TestStores.integer(database: name, #"SELECT count(*) FROM "_MIGRATIONS""#)
        #expect(sqlite == ["0001_schema", "0002_schema_version", "0003_rate_limits", "0004_jobs", "0005_files", "0006_one_time", "0007_console"])
        #expect(count == sqlite.count)
        for id in sqlite {
            let found = try await TestStores.integer(database: name, #"SELECT count(*) FROM "_MIGRATIONS" WHERE "id" = '\#(id)'"#)
            #expect(found == 1, "\(id)")
        }
    }
}
