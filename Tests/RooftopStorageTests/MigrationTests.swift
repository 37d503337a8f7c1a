import Foundation
import GRDB
import RooftopPostgres
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

/// A database a newer `rooftop` migrated is refused, not run against with an older schema.
@Suite struct MigrationTests {
    @Test func sqliteRefusesANewerDatabase() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("data.db").path
        try SQLiteStore(path: path).close()
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
}
