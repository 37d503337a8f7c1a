import Foundation
import RooftopCore
import RooftopPostgres
import RooftopStorage
import RooftopTesting
import Testing

/// The PostgreSQL store's cached catalog stays true while classes are made concurrently: a
/// catalog read that overlaps the commit of a new class must not be kept as current afterwards
/// (it was: the schemas were read before the commit and the schema version after it, so the
/// stale catalog carried the new version, and the class stayed unknown to this node — a
/// device's first saves answered 404).
@Suite struct PostgresCatalogTests {
    @Test func aClassMadeWhileTheCatalogIsReadIsKnownOnceMade() async throws {
        let (store, task) = try await TestStores.postgres(poolSize: 12)
        defer { task.cancel() }
        var stale: [Int] = []
        for round in 0..<30 {
            let name = try ClassName("Race\(round)")
            let lookup = FindRequest(className: name, query: .and([]), scope: AccessScope(classes: [name: .master]))
            try await withThrowingTaskGroup(of: Void.self) { group in
                // A find of a class the catalog lacks reloads the catalog: these reloads overlap
                // the commit below.
                for _ in 0..<8 {
                    group.addTask { for _ in 0..<6 { _ = try await store.find(lookup) } }
                }
                group.addTask {
                    _ = try await store.write([
                        .insert(
                            className: name, objectId: "object\(round)", at: ParseDate(millisecondsSince1970: 1),
                            write: try ObjectWrite(body: ["n": 1], isCreate: true), grant: SchemaGrant(createClass: true, addFields: true))
                    ])
                }
                try await group.waitForAll()
            }
            if try await store.schema(name) == nil { stale.append(round) }
        }
        #expect(stale.isEmpty, "rounds whose new class this node did not know after its own write: \(stale)")
    }
}
