import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopSQLite
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Roles: inheritance through `roles`, cycles, the cache, and `role:` ACL grants.
@Suite struct RoleTests: LiveServerTest {
    func makeRole(_ objects: Objects, _ name: String) async throws -> String {
        try await objects.create(.role, body: ["name": .string(name), "ACL": ["*": ["read": true]]], principal: .master).objectId
    }

    func link(_ objects: Objects, _ roleId: String, _ field: String, _ target: ClassName, _ id: String) async throws {
        let pointer = ObjectRef(className: target, objectId: id).pointerJSON
        _ = try await objects.update(
            .role, objectId: roleId, body: [field: ["__op": "AddRelation", "objects": [pointer]]], principal: .master)
    }

    @Test func inheritanceFollowsChildRolesAndSurvivesCycles() async throws {
        try await withObjects { objects, _ in
            let admins = try await makeRole(objects, "Admins")
            let moderators = try await makeRole(objects, "Moderators")
            let members = try await makeRole(objects, "Members")
            _ = try await makeRole(objects, "Unrelated")
            try await link(objects, admins, "users", .user, "alice12345")
            // Admins inside Moderators.roles: admins are moderators; moderators are members.
            try await link(objects, moderators, "roles", .role, admins)
            try await link(objects, members, "roles", .role, moderators)
            #expect(try await objects.roles.roles(forUser: "alice12345") == ["Admins", "Members", "Moderators"])
            #expect(try await objects.roles.roles(forUser: "bob1234567") == [])
            // A cycle (Admins inside Members.roles and Members inside Admins.roles) still ends.
            try await link(objects, admins, "roles", .role, members)
            #expect(try await objects.roles.roles(forUser: "alice12345") == ["Admins", "Members", "Moderators"])
        }
    }

    @Test func roleWritesClearTheCache() async throws {
        try await withObjects { objects, _ in
            let staff = try await makeRole(objects, "Staff")
            #expect(try await objects.roles.roles(forUser: "carol12345") == [])
            try await link(objects, staff, "users", .user, "carol12345")
            #expect(try await objects.roles.roles(forUser: "carol12345") == ["Staff"])
            let pointer = ObjectRef(className: .user, objectId: "carol12345").pointerJSON
            _ = try await objects.update(
                .role, objectId: staff, body: ["users": ["__op": "RemoveRelation", "objects": [pointer]]], principal: .master)
            #expect(try await objects.roles.roles(forUser: "carol12345") == [])
        }
    }

    @Test func roleGrantsInACLsAreEnforcedInQueries() async throws {
        try await withObjects { objects, _ in
            let staff = try await makeRole(objects, "Staff")
            try await link(objects, staff, "users", .user, "dave123456")
            let note = try ClassName("Memo")
            let acl: JSON = ["role:Staff": ["read": true, "write": true]]
            let id = try await objects.create(note, body: ["text": "for staff", "ACL": acl], principal: .master).objectId
            let dave = try await objects.roles.principal(forUser: "dave123456")
            let erin = try await objects.roles.principal(forUser: "erin123456")
            #expect(try await objects.find(note, params: [:], principal: dave).results.count == 1)
            #expect(try await objects.find(note, params: [:], principal: erin).results.isEmpty)
            await #expect(throws: ParseError.objectNotFound) { _ = try await objects.get(note, objectId: id, params: [:], principal: erin) }
            _ = try await objects.update(note, objectId: id, body: ["text": "edited"], principal: dave)
        }
    }

    @Test func roleNamesAreValidatedUniqueAndFixed() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/roles", body: #"{"ACL":{}}"#).json["code"] == 111)
            #expect(try await call(client, .post, "/parse/roles", body: #"{"name":"Ops"}"#).json["code"] == 111)
            #expect(try await call(client, .post, "/parse/roles", body: #"{"name":"Ops:*","ACL":{}}"#).json["code"] == 139)
            let created = try await call(client, .post, "/parse/roles", body: #"{"name":"Ops","ACL":{"*":{"read":true,"write":true}}}"#)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await call(client, .post, "/parse/roles", body: #"{"name":"Ops","ACL":{}}"#).json["code"] == 137)
            #expect(try await call(client, .put, "/parse/roles/\(id)", body: #"{"name":"Root"}"#).json["code"] == 139)
            #expect(try await call(client, .get, "/parse/roles/\(id)").json["name"] == "Ops")
            let found = try await call(client, .get, "/parse/roles?where=\(encoded(#"{"name":"Ops"}"#))")
            #expect(found.json["results"]?.arrayValue?.count == 1)
        }
    }
}
