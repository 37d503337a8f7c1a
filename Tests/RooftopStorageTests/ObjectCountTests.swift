import Foundation
import RooftopCore
import RooftopPostgres
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

/// `estimatedCount` (the console's classes page): exact below the cap, never reading past it;
/// PostgreSQL's planner estimate beyond it once the table has statistics.
@Suite struct ObjectCountTests {
    static func fill(_ store: any DataStore, _ count: Int) async throws {
        let item = try ClassName("Item")
        for i in 0..<count {
            _ = try await store.write([
                .insert(
                    className: item, objectId: "item\(i)", at: ParseDate(millisecondsSince1970: Int64(i)),
                    write: try ObjectWrite(body: ["n": .number(Double(i))], isCreate: true), grant: SchemaGrant(createClass: true, addFields: true))
            ])
        }
    }

    @Test func sqliteCountsUpToTheCap() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        defer { try? store.close() }
        try await Self.fill(store, 20)
        #expect(try await store.estimatedCount(try ClassName("Item"), cap: 50) == .exact(20))
        #expect(try await store.estimatedCount(try ClassName("Item"), cap: 20) == .atLeast(20))
        #expect(try await store.estimatedCount(try ClassName("Item"), cap: 10) == .atLeast(10))
        #expect(try await store.estimatedCount(try ClassName("Nothing"), cap: 10) == .exact(0))
    }

    @Test func postgresEstimatesPastTheCap() async throws {
        let url = try await TestStores.freshPostgresDatabase()
        let name = try #require(URLComponents(string: url)?.path.dropFirst()).description
        let (store, task) = try await TestStores.postgres(url: url)
        defer { task.cancel() }
        try await Self.fill(store, 20)
        let item = try ClassName("Item")
        #expect(try await store.estimatedCount(item, cap: 50) == .exact(20))
        // No statistics yet (reltuples is -1 or 0): only "at least".
        #expect(try await store.estimatedCount(item, cap: 10) == .atLeast(10))
        try await TestStores.execute(database: name, #"ANALYZE "Item""#)
        #expect(try await store.estimatedCount(item, cap: 10) == .about(20))
        #expect(try await store.estimatedCount(try ClassName("Nothing"), cap: 10) == .exact(0))
    }
}
