import Foundation
import RooftopCore
import RooftopPostgres
import RooftopStorage
import RooftopTesting
import Testing

@Suite struct PostgresConformanceTests {
    /// The suite SQLite passes, each check on a database of its own.
    @Test func conformance() async throws {
        var tasks: [Task<Void, any Error>] = []
        defer { tasks.forEach { $0.cancel() } }
        try await DataStoreConformance.runAll {
            let (store, task) = try await TestStores.postgres()
            tasks.append(task)
            return store
        }
    }

    /// The operator suite SQLite passes, with the same exact matches.
    @Test func queryOperators() async throws {
        let (store, task) = try await TestStores.postgres()
        defer { task.cancel() }
        try await QueryConformance.runAll(store)
    }
}

/// TLS to the database when the URL asks for it (the test server has a self-signed certificate).
@Suite struct PostgresTLSTests {
    @Test func sslmodeRequireEncryptsAndVerifyFullChecksTheCertificate() async throws {
        let plain = try await TestStores.freshPostgresDatabase()
        let name = try #require(URLComponents(string: plain)?.path.dropFirst()).description
        let encrypted = plain.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let (_, task) = try await TestStores.postgres(url: encrypted)
        defer { task.cancel() }
        let tls = try await TestStores.integer(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(name)' AND s.ssl")
        #expect(tls >= 1)
        let clear = try await TestStores.integer(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(name)' AND NOT s.ssl")
        #expect(clear == 0)
        // A self-signed certificate no trusted authority signed: verify-full refuses it.
        let verified = plain.replacingOccurrences(of: "sslmode=disable", with: "sslmode=verify-full")
        await #expect {
            _ = try await TestStores.postgres(url: verified)
        } throws: { error in
            "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
        }
    }
}

/// The expression indexes PostgreSQL gets (pointers to users, `/schemas` index requests) are the
/// ones its planner can use for the compiled queries.
@Suite struct PostgresIndexTests {
    @Test func pointerAndSchemaIndexesAreUsable() async throws {
        let (store, task) = try await TestStores.postgres()
        defer { task.cancel() }
        let note = try ClassName("Note")
        let body: [String: JSON] = [
            "owner": ["__type": "Pointer", "className": "_User", "objectId": "u123456789"], "score": 3,
            "ACL": ["u123456789": ["read": true]],
        ]
        _ = try await store.write([
            .insert(
                className: note, objectId: "n123456789", at: ParseDate(millisecondsSince1970: 0),
                write: try ObjectWrite(body: body, isCreate: true), grant: SchemaGrant(createClass: true, addFields: true))
        ])
        let owner = Access(aclGroup: ["*", "u123456789"], userId: "u123456789")
        let byOwner = FindRequest(
            className: note, query: try QueryNode.parse(where: ["owner": body["owner"] ?? .null]), scope: AccessScope(classes: [note: owner]))
        let ownerPlan = try await store.queryPlan(byOwner)
        #expect(ownerPlan.contains { $0.contains("Note_owner_ptr") }, "\(ownerPlan)")
        #expect(try await store.find(byOwner).count == 1)

        let byScore = FindRequest(
            className: note, query: try QueryNode.parse(where: ["score": ["$gt": 1]]), scope: AccessScope(classes: [note: .master]))
        #expect(try await store.queryPlan(byScore).allSatisfy { !$0.contains("by_score") })
        _ = try await store.alterSchema(note) { current in
            var next = try #require(current)
            next.indexes["by_score"] = ["score": 1]
            return next
        }
        let plan = try await store.queryPlan(byScore)
        #expect(plan.contains { $0.contains("Note_idx_by_score") }, "\(plan)")
        #expect(try await store.find(byScore).count == 1)
    }
}
