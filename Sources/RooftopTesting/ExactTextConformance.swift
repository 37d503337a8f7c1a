import RooftopCore
package import RooftopStorage
import Testing

/// Text with U+0000 (NUL) is refused identically by every adapter (`ExactText`), and nothing
/// ever compares or stores it cut short.
package enum ExactTextConformance {
    static var note: ClassName { (try? ClassName("Note")) ?? .role }
    static let now = ParseDate(millisecondsSince1970: 1_700_000_000_000)
    static let grant = SchemaGrant(createClass: true, addFields: true)

    /// Writes refused with 107 and nothing stored; queries refused with 107 rather than
    /// matching the text before the NUL; rate-limit keys kept apart.
    package static func nulIsRefusedNotTruncated(_ store: any DataStore) async throws {
        try await insert(store, ["name": "abc", "meta": ["k": "v"]], id: "x1xxxxxxxx")
        let hostile: [[String: JSON]] = [
            ["name": "abc\u{0}x"], ["name": "\u{0}"], ["meta": ["k\u{0}": 1]], ["list": ["ok", "abc\u{0}"]],
            ["owner": ["__type": "Pointer", "className": "_User", "objectId": "u\u{0}"]],
        ]
        for body in hostile {
            await #expect(throws: ExactText.refused) { try await insert(store, body, id: "x2xxxxxxxx") }
        }
        await #expect(throws: ExactText.refused) { try await insert(store, ["name": "fine"], id: "x3\u{0}xxxxxxx") }
        let update = try ObjectWrite(body: ["name": "abc\u{0}"], isCreate: false)
        await #expect(throws: ExactText.refused) {
            _ = try await store.write([
                .update(className: note, objectId: "x1xxxxxxxx", at: now, write: update, access: .master, grant: grant)
            ])
        }
        let adds = try ObjectWrite(body: ["list": ["__op": "AddUnique", "objects": ["\u{0}"]]], isCreate: false)
        await #expect(throws: ExactText.refused) {
            _ = try await store.write([.update(className: note, objectId: "x1xxxxxxxx", at: now, write: adds, access: .master, grant: grant)])
        }
        let all = try await find(store, .always)
        #expect(all.map(\.objectId) == ["x1xxxxxxxx"])
        #expect(all.first?.fields["name"] == "abc")

        let queries: [JSON] = [
            ["name": "abc\u{0}x"], ["name": ["$eq": "abc\u{0}"]], ["name": ["$ne": "abc\u{0}"]], ["name": ["$in": ["x", "abc\u{0}"]]],
            ["name": ["$nin": ["abc\u{0}"]]], ["name": ["$gte": "abc\u{0}"]], ["name": ["$regex": "^abc\u{0}"]], ["meta.k": "v\u{0}"],
            ["meta": ["k": "v\u{0}"]], ["objectId": "x1xxxxxxxx\u{0}"],
            ["name": ["$inQuery": ["className": "Note", "where": ["name": "abc\u{0}"]]]],
            ["$or": [["name": "zzz"], ["name": "abc\u{0}"]]],
        ]
        for query in queries {
            let node = try QueryNode.parse(where: query)
            await #expect(throws: ExactText.refused, "\(query)") { _ = try await find(store, node) }
            await #expect(throws: ExactText.refused, "\(query)") {
                _ = try await store.count(FindRequest(className: note, query: node, scope: AccessScope(classes: [note: .master])))
            }
        }
        // The exact text still matches.
        #expect(try await find(store, try QueryNode.parse(where: ["name": "abc"])).count == 1)

        // Rate-limit keys that differ only after a NUL count separately.
        #expect(try await store.countRequest(key: "login:admin", window: 60_000, now: 1).count == 1)
        #expect(try await store.countRequest(key: "login:admin\u{0}x", window: 60_000, now: 1).count == 1)
        #expect(try await store.countRequest(key: "login:admin\\0x", window: 60_000, now: 1).count == 1)
        #expect(try await store.countRequest(key: "login:admin", window: 60_000, now: 1).count == 2)
    }

    static func insert(_ store: any DataStore, _ body: [String: JSON], id: String) async throws {
        let write = try ObjectWrite(body: body, isCreate: true)
        _ = try await store.write([.insert(className: note, objectId: id, at: now, write: write, grant: grant)])
    }

    static func find(_ store: any DataStore, _ node: QueryNode) async throws -> [StoredObject] {
        try await store.find(FindRequest(className: note, query: node, scope: AccessScope(classes: [note: .master])))
    }
}
