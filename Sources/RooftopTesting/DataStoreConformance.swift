import RooftopCore
package import RooftopStorage
import Testing

/// The storage conformance suite, written once: every `DataStore` adapter must pass all of it.
package enum DataStoreConformance {
    /// Every check, in order, against fresh stores made by `makeStore`.
    package static func runAll(_ makeStore: () async throws -> any DataStore) async throws {
        try await aclIsCompiledIntoQueries(await makeStore())
        try await writesRequireWritePermission(await makeStore())
        try await fieldTypesAreLocked(await makeStore())
        try await atomicOperationsEcho(await makeStore())
        try await classCreationNeedsGrant(await makeStore())
        try await writeGroupsAreAtomic(await makeStore())
        try await schemaChangesDropFieldData(await makeStore())
        try await relationDeclarationsAreNotStored(await makeStore())
        try await queriesSeeClassesAndFieldsAddedByWrites(await makeStore())
        try await ExactTextConformance.nulIsRefusedNotTruncated(await makeStore())
        try await OneTimeConformance.recordsAreTakenOnce(await makeStore())
        try await WriteGroupConformance.trimsAndExchangesRunInTheGroup(await makeStore())
    }

    static var note: ClassName { (try? ClassName("Note")) ?? .role }
    static let now = ParseDate(millisecondsSince1970: 1_700_000_000_000)

    static func insert(_ store: any DataStore, _ body: [String: JSON], id: String) async throws {
        let write = try ObjectWrite(body: body, isCreate: true)
        _ = try await store.write([
            .insert(className: note, objectId: id, at: now, write: write, grant: SchemaGrant(createClass: true, addFields: true))
        ])
    }

    static func user(_ id: String) -> Access { Access(aclGroup: ["*", id], userId: id) }

    /// A row the caller may not read is not returned, and limit/count only see readable rows.
    package static func aclIsCompiledIntoQueries(_ store: any DataStore) async throws {
        for i in 0..<5 {
            try await insert(store, ["n": .number(Double(i)), "ACL": ["alice12345": ["read": true, "write": true]]], id: "a\(i)xxxxxxx")
            try await insert(store, ["n": .number(Double(i)), "ACL": ["bob1234567": ["read": true]]], id: "b\(i)xxxxxxx")
        }
        var options = FindOptions()
        options.limit = 3
        let request = FindRequest(className: note, query: .always, options: options, scope: AccessScope(classes: [note: user("alice12345")]))
        let page = try await store.find(request)
        #expect(page.count == 3)
        #expect(page.allSatisfy { $0.objectId.hasPrefix("a") })
        #expect(try await store.count(request) == 5)
        let master = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        #expect(try await store.count(master) == 10)
        let publicCount = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: Access(aclGroup: ["*"])]))
        #expect(try await store.count(publicCount) == 0)
    }

    /// An update or delete by someone without write permission fails with 101 and changes nothing.
    package static func writesRequireWritePermission(_ store: any DataStore) async throws {
        try await insert(store, ["title": "mine", "ACL": ["alice12345": ["read": true, "write": true], "*": ["read": true]]], id: "w1xxxxxxxx")
        let write = try ObjectWrite(body: ["title": "stolen"], isCreate: false)
        let grant = SchemaGrant(createClass: false, addFields: true)
        await #expect(throws: ParseError.objectNotFound) {
            _ = try await store.write([
                .update(className: note, objectId: "w1xxxxxxxx", at: now, write: write, access: user("bob1234567"), grant: grant)
            ])
        }
        await #expect(throws: ParseError.objectNotFound) {
            _ = try await store.write([.delete(className: note, objectId: "w1xxxxxxxx", access: user("bob1234567"))])
        }
        let read = FindRequest(
            className: note, query: .field(FieldPath(field: .objectId), .equals("w1xxxxxxxx")), scope: AccessScope(classes: [note: .master]))
        #expect(try await store.find(read).first?.fields["title"] == "mine")
        _ = try await store.write([.update(className: note, objectId: "w1xxxxxxxx", at: now, write: write, access: user("alice12345"), grant: grant)])
        #expect(try await store.find(read).first?.fields["title"] == "stolen")
    }

    /// The first write fixes a field's type; a different type later is 111 and stores nothing.
    package static func fieldTypesAreLocked(_ store: any DataStore) async throws {
        try await insert(store, ["score": 1], id: "t1xxxxxxxx")
        await #expect(throws: ParseError.self) { try await insert(store, ["score": "high"], id: "t2xxxxxxxx") }
        let all = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        #expect(try await store.count(all) == 1)
        #expect(try await store.schema(note)?.fields["score"] == .number)
    }

    /// Increment and Add run against the stored value and report the result.
    package static func atomicOperationsEcho(_ store: any DataStore) async throws {
        try await insert(store, ["count": 1, "tags": ["a"]], id: "o1xxxxxxxx")
        let write = try ObjectWrite(
            body: ["count": ["__op": "Increment", "amount": 2], "tags": ["__op": "AddUnique", "objects": ["a", "b"]]], isCreate: false)
        let outcome = try await store.write([
            .update(
                className: note, objectId: "o1xxxxxxxx", at: now, write: write, access: .master,
                grant: SchemaGrant(createClass: false, addFields: true))
        ])
        guard case .updated(_, let echo)? = outcome.first else {
            Issue.record("expected an update")
            return
        }
        #expect(echo["count"] == 3)
        #expect(echo["tags"] == ["a", "b"])
    }

    /// Writing to a class that does not exist needs the grant; without it nothing is created.
    package static func classCreationNeedsGrant(_ store: any DataStore) async throws {
        let other = try ClassName("Secret")
        let write = try ObjectWrite(body: ["x": 1], isCreate: true)
        await #expect(throws: ParseError.self) {
            _ = try await store.write([
                .insert(className: other, objectId: "s1xxxxxxxx", at: now, write: write, grant: SchemaGrant(createClass: false, addFields: true))
            ])
        }
        #expect(try await store.schema(other) == nil)
    }

    /// A failing write in a group undoes the writes before it (batch `transaction: true`).
    package static func writeGroupsAreAtomic(_ store: any DataStore) async throws {
        try await insert(store, ["n": 1], id: "g1xxxxxxxx")
        let grant = SchemaGrant(createClass: false, addFields: true)
        let bump = try ObjectWrite(body: ["n": ["__op": "Increment", "amount": 1]], isCreate: false)
        let fresh = try ObjectWrite(body: ["n": 7], isCreate: true)
        await #expect(throws: ParseError.objectNotFound) {
            _ = try await store.write([
                .update(className: note, objectId: "g1xxxxxxxx", at: now, write: bump, access: .master, grant: grant),
                .insert(className: note, objectId: "g2xxxxxxxx", at: now, write: fresh, grant: grant),
                .delete(className: note, objectId: "missing123", access: .master),
            ])
        }
        let all = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        let rows = try await store.find(all)
        #expect(rows.map(\.objectId) == ["g1xxxxxxxx"])
        #expect(rows.first?.fields["n"] == 1)
    }

    /// Deleting a field through a schema change removes its values from every object, keeps
    /// other fields, and a field of another type may then be added.
    package static func schemaChangesDropFieldData(_ store: any DataStore) async throws {
        try await insert(store, ["secret": "x", "keep": 1], id: "d1xxxxxxxx")
        _ = try await store.alterSchema(note) { current in
            var next = try #require(current)
            next.fields["secret"] = nil
            next.indexes["by_keep"] = ["keep": 1]
            return next
        }
        let all = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        let row = try await store.find(all).first
        #expect(row?.fields["secret"] == nil)
        #expect(row?.fields["keep"] == 1)
        try await insert(store, ["secret": true], id: "d2xxxxxxxx")
        #expect(try await store.schema(note)?.fields["secret"] == .boolean)
        #expect(try await store.schema(note)?.indexes["by_keep"] == ["keep": 1])
        // A change that throws leaves the schema as it was.
        await #expect(throws: ParseError.self) {
            _ = try await store.alterSchema(note) { _ in throw ParseError(.invalidSchemaOperation, "no") }
        }
        #expect(try await store.schema(note)?.fields["keep"] == .number)
    }

    /// `{"__type":"Relation"}` declares the field's type; it is not stored in the document.
    package static func relationDeclarationsAreNotStored(_ store: any DataStore) async throws {
        try await insert(store, ["likes": ["__type": "Relation", "className": "Item"], "n": 1], id: "r1xxxxxxxx")
        let all = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        let row = try await store.find(all).first
        #expect(row?.fields["likes"] == nil)
        #expect(row?.fields["n"] == 1)
        #expect(try await store.schema(note)?.fields["likes"] == .relation(try ClassName("Item")))
    }

    /// A class and a relation field created by writes are known to the very next query, even
    /// though an earlier query had loaded (and cached) the schemas before they existed.
    package static func queriesSeeClassesAndFieldsAddedByWrites(_ store: any DataStore) async throws {
        try await insert(store, ["n": 1], id: "s1xxxxxxxx")
        let notes = FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master]))
        #expect(try await store.find(notes).count == 1)
        let item = try ClassName("Item")
        let grant = SchemaGrant(createClass: true, addFields: true)
        _ = try await store.write([
            .insert(className: item, objectId: "i1xxxxxxxx", at: now, write: try ObjectWrite(body: ["name": "pen"], isCreate: true), grant: grant)
        ])
        let pointer: JSON = ["__type": "Pointer", "className": "Item", "objectId": "i1xxxxxxxx"]
        try await insert(store, ["likes": ["__op": "AddRelation", "objects": [pointer]]], id: "s2xxxxxxxx")
        let related = QueryNode.relatedTo(owner: ObjectRef(className: note, objectId: "s2xxxxxxxx"), key: try FieldName("likes"))
        let items = FindRequest(className: item, query: related, scope: AccessScope(classes: [item: .master, note: .master]))
        #expect(try await store.find(items).map(\.objectId) == ["i1xxxxxxxx"])
    }
}
