import Foundation
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Class-level permissions with signed-in principals (through the services, since sessions
/// arrive with the users issue): authentication, roles, pointer permissions, protected fields.
@Suite struct ClassLevelPermissionTests: LiveServerTest {
    let doc = try! ClassName("Doc")
    let alice = Principal.user("alice12345")
    let bob = Principal.user("bob1234567")

    func pointer(_ id: String) -> JSON { ObjectRef(className: .user, objectId: id).pointerJSON }

    func setUp(_ objects: Objects, _ schemas: Schemas, clp: String) async throws -> [String] {
        let fields = #"{"owner":{"type":"Pointer","targetClass":"_User"},"editors":{"type":"Array"},"phone":{"type":"String"},"n":{"type":"Number"}}"#
        let body = try JSONParser.parse(#"{"fields":\#(fields),"classLevelPermissions":\#(clp)}"#)
        _ = try await schemas.create(doc, body: body.objectValue ?? [:])
        var ids: [String] = []
        for (owner, n) in [("alice12345", 1), ("bob1234567", 2), ("alice12345", 3)] {
            let body: [String: JSON] = ["owner": pointer(owner), "editors": [pointer(owner)], "phone": .string("555-\(n)"), "n": .number(Double(n))]
            ids.append(try await objects.create(doc, body: body, principal: .master).objectId)
        }
        return ids
    }

    @Test func requiresAuthenticationAndRoles() async throws {
        try await withObjects { objects, schemas in
            _ = try await setUp(objects, schemas, clp: #"{"find":{"requiresAuthentication":true},"get":{"role:Auditors":true},"create":{}}"#)
            await #expect(throws: ParseError(.objectNotFound, "Permission denied, user needs to be authenticated.")) {
                _ = try await objects.find(doc, params: [:], principal: .anonymous)
            }
            #expect(try await objects.find(doc, params: [:], principal: alice).results.count == 3)
            let id = try #require(try await objects.find(doc, params: [:], principal: alice).results.first?["objectId"]?.stringValue)
            await #expect(throws: ParseError.self) { _ = try await objects.get(doc, objectId: id, params: [:], principal: alice) }
            #expect(try await objects.get(doc, objectId: id, params: [:], principal: .user("carol12345", roles: ["Auditors"]))["n"] != nil)
            await #expect(throws: ParseError(.operationForbidden, "Permission denied for action create on class Doc.")) {
                _ = try await objects.create(doc, body: ["n": 9], principal: alice)
            }
        }
    }

    @Test func pointerPermissionsRestrictRowsInSQL() async throws {
        try await withObjects { objects, schemas in
            let ids = try await setUp(
                objects, schemas,
                clp:
                    #"{"find":{"pointerFields":["owner"]},"count":{"pointerFields":["owner"]},"update":{"pointerFields":["editors"]},"delete":{},"create":{"pointerFields":["owner"]}}"#
            )
            // Only alice's rows, and limit/count see only those.
            let page = try await objects.find(doc, params: ["limit": 1, "count": 1], principal: alice)
            #expect(page.count == 2)
            #expect(page.results.count == 1)
            #expect(try await objects.find(doc, params: [:], principal: .anonymous).results.isEmpty)
            // Update through the array pointer field: bob can't touch alice's row.
            await #expect(throws: ParseError.objectNotFound) { _ = try await objects.update(doc, objectId: ids[0], body: ["n": 10], principal: bob) }
            _ = try await objects.update(doc, objectId: ids[1], body: ["n": 20], principal: bob)
            // Ids as plain strings are not pointers: no match, and no database error either.
            let loose = try await objects.create(doc, body: ["editors": ["bob1234567", 7]], principal: .master).objectId
            await #expect(throws: ParseError.objectNotFound) { _ = try await objects.update(doc, objectId: loose, body: ["n": 1], principal: bob) }
            // Pointer permissions never grant create, and an empty rule denies delete.
            await #expect(throws: ParseError.self) { _ = try await objects.create(doc, body: ["owner": pointer("alice12345")], principal: alice) }
            await #expect(throws: ParseError.self) { try await objects.delete(doc, objectId: ids[0], principal: alice) }
        }
    }

    @Test func readAndWriteUserFields() async throws {
        try await withObjects { objects, schemas in
            let ids = try await setUp(
                objects, schemas, clp: #"{"find":{},"get":{},"update":{},"readUserFields":["owner"],"writeUserFields":["owner"]}"#)
            #expect(try await objects.find(doc, params: [:], principal: bob).results.map { $0["n"] } == [2])
            await #expect(throws: ParseError.objectNotFound) { _ = try await objects.get(doc, objectId: ids[0], params: [:], principal: bob) }
            _ = try await objects.update(doc, objectId: ids[0], body: ["n": 11], principal: alice)
            await #expect(throws: ParseError.objectNotFound) { _ = try await objects.update(doc, objectId: ids[0], body: ["n": 12], principal: bob) }
        }
    }

    @Test func protectedFieldsByAudience() async throws {
        try await withObjects { objects, schemas in
            let ids = try await setUp(
                objects, schemas, clp: #"{"protectedFields":{"*":["phone","n"],"authenticated":["phone"],"userField:owner":[]}}"#)
            // Anonymous: both hidden. Signed in: only phone (intersection). Owner: nothing.
            let anon = try await objects.get(doc, objectId: ids[0], params: [:], principal: .anonymous)
            #expect(anon["phone"] == nil && anon["n"] == nil)
            let other = try await objects.get(doc, objectId: ids[0], params: [:], principal: bob)
            #expect(other["phone"] == nil && other["n"] == 1)
            let owner = try await objects.get(doc, objectId: ids[0], params: [:], principal: alice)
            #expect(owner["phone"] == "555-1")
            await #expect(throws: ParseError.self) { _ = try await objects.find(doc, params: ["where": ["phone": "555-1"]], principal: bob) }
        }
    }

    /// An audience without a `*` entry keeps its fields hidden once the schema is stored and read
    /// back (the stored form used to add `"*": []`, which emptied the intersection).
    @Test func protectedFieldsWithoutPublicEntrySurviveStorage() async throws {
        try await withObjects { objects, schemas in
            let ids = try await setUp(objects, schemas, clp: #"{"protectedFields":{"authenticated":["phone"]}}"#)
            let other = try await objects.get(doc, objectId: ids[0], params: [:], principal: bob)
            #expect(other["phone"] == nil && other["n"] == 1)
            let anon = try await objects.get(doc, objectId: ids[0], params: [:], principal: .anonymous)
            #expect(anon["phone"] == "555-1")
        }
    }
}
