import Foundation
import RooftopCore
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

@Suite struct SQLiteConformanceTests {
    /// Each check gets its own database file in a fresh temporary directory.
    @Test func conformance() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var n = 0
        try await DataStoreConformance.runAll {
            n += 1
            return try SQLiteStore(path: dir.appendingPathComponent("db\(n).sqlite").path)
        }
    }

    /// Every query operator and option docs/compatibility.md claims, with the exact matches.
    @Test func queryOperators() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await QueryConformance.runAll(try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path))
    }
}

/// SQLite specifics: indexes are real and used.
@Suite struct SQLiteIndexTests {
    @Test func pointerAndSchemaIndexesAreUsed() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("db.sqlite").path)
        let note = try ClassName("Note")
        let body: [String: JSON] = [
            "owner": ["__type": "Pointer", "className": "_User", "objectId": "u123456789"], "score": 3,
            "ACL": ["u123456789": ["read": true]],
        ]
        let grant = SchemaGrant(createClass: true, addFields: true)
        let at = ParseDate(millisecondsSince1970: 0)
        _ = try await store.write([
            .insert(className: note, objectId: "n123456789", at: at, write: try ObjectWrite(body: body, isCreate: true), grant: grant)
        ])
        let owner = Access(aclGroup: ["*", "u123456789"], userId: "u123456789")
        let byOwner = FindRequest(
            className: note, query: try QueryNode.parse(where: ["owner": body["owner"] ?? .null]), scope: AccessScope(classes: [note: owner]))
        #expect(try await store.queryPlan(byOwner).contains { $0.contains("USING INDEX Note_owner_ptr") })
        #expect(try await store.find(byOwner).count == 1)

        let byScore = FindRequest(
            className: note, query: try QueryNode.parse(where: ["score": ["$gt": 1]]), scope: AccessScope(classes: [note: .master]))
        #expect(try await store.queryPlan(byScore).allSatisfy { !$0.contains("INDEX") })
        _ = try await store.alterSchema(note) { current in
            var next = try #require(current)
            next.indexes["by_score"] = ["score": 1]
            return next
        }
        let plan = try await store.queryPlan(byScore)
        #expect(plan.contains { $0.contains("USING INDEX Note_idx_by_score") }, "\(plan)")
        _ = try await store.alterSchema(note) { current in
            var next = try #require(current)
            next.indexes["by_score"] = nil
            return next
        }
        #expect(try await store.queryPlan(byScore).allSatisfy { !$0.contains("by_score") })
        try store.close()
    }
}
