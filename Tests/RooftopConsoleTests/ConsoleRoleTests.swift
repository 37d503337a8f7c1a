import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopStorage
import RooftopTesting
import Testing

/// The roles pages over real HTTP: create under the API's name rules, add and remove users and
/// child roles, and what a member's query then finds.
@Suite struct ConsoleRoleTests: LiveServerTest {
    /// Anyone may sign up with a username that is another user's objectId: a typed objectId
    /// means that user, and a removal names the listed member by objectId, never by name.
    @Test func aUsernameThatIsAnotherUsersIdIsNotTakenForThem() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let victim = try await signUp(client, "victim")
            let mallory = try await signUp(client, victim.id)
            let staff = try await masterCreate(client, "_Role", #"{"name":"Staff","ACL":{}}"#)
            let added = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/add-user", cookies: cookies, form: ["csrf": csrf, "member": victim.id])
            #expect(added.status == 200)
            func members() async throws -> [String] {
                let related = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":"\#(staff)"},"key":"users"}}"#
                let found = try await call(
                    client, .get, "/parse/users?where=" + (related.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""), master: true)
                return (found.json["results"]?.arrayValue ?? []).compactMap { $0["objectId"]?.stringValue }.sorted()
            }
            #expect(try await members() == [victim.id], "the objectId's user, not the user named like it")
            _ = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/add-user", cookies: cookies, form: ["csrf": csrf, "member": mallory.id])
            #expect(try await members() == [mallory.id, victim.id].sorted())
            let removed = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/remove-user", cookies: cookies, form: ["csrf": csrf, "member": victim.id])
            #expect(removed.status == 200)
            #expect(try await members() == [mallory.id], "the listed member is the one removed")
            // A removal by name is not looked up: removing "<victim's id>" never reaches mallory.
            _ = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/remove-user", cookies: cookies, form: ["csrf": csrf, "member": victim.id])
            #expect(try await members() == [mallory.id])
        }
    }

    @Test func rolesAreCreatedAndFilledAsTheAPIDoes() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let dana = try await signUp(client, "dana")
            for name in ["bad!name", "", "x\u{0}y", String(repeating: "a", count: 129)] {
                let refused = try await consoleRequest(client, .post, "/console/roles", cookies: cookies, form: ["csrf": csrf, "name": name])
                #expect(refused.status == 400 && refused.html.contains("role=\"alert\""), "\(name.prefix(10))")
            }
            let created = try await consoleRequest(
                client, .post, "/console/roles", cookies: cookies, form: ["csrf": csrf, "name": "Staff", "publicRead": "on"])
            #expect(created.status == 200)
            let roles = try await call(client, .get, "/parse/roles", master: true).json["results"]?.arrayValue ?? []
            #expect(roles.count == 1 && roles.first?["name"] == "Staff" && roles.first?["ACL"] == ["*": ["read": true]])
            let staff = try #require(roles.first?["objectId"]?.stringValue)
            let duplicate = try await consoleRequest(client, .post, "/console/roles", cookies: cookies, form: ["csrf": csrf, "name": "Staff"])
            #expect(duplicate.status == 400)
            let leads = try await masterCreate(client, "_Role", #"{"name":"Leads","ACL":{}}"#)
            // A note only Staff may read: dana finds it once she is a member (directly, then
            // through Leads, a role whose users get Staff's access).
            _ = try await masterCreate(client, "Note", #"{"ACL":{"role:Staff":{"read":true}}}"#)
            func danaFinds() async throws -> Int {
                try await call(client, .get, "/parse/classes/Note", headers: ["X-Parse-Session-Token": dana.token]).json["results"]?.arrayValue?.count
                    ?? -1
            }
            #expect(try await danaFinds() == 0)
            let added = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/add-user", cookies: cookies, form: ["csrf": csrf, "member": "dana"])
            #expect(added.status == 200 && added.html.contains(#"<a href="/console/users/\#(dana.id)">dana</a>"#))
            #expect(try await danaFinds() == 1)
            let removed = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/remove-user", cookies: cookies, form: ["csrf": csrf, "member": dana.id])
            #expect(removed.status == 200 && !removed.html.contains("/console/users/\(dana.id)"))
            #expect(try await danaFinds() == 0)
            _ = try await consoleRequest(
                client, .post, "/console/roles/\(leads)/add-user", cookies: cookies, form: ["csrf": csrf, "member": dana.id])
            let child = try await consoleRequest(
                client, .post, "/console/roles/\(staff)/add-role", cookies: cookies, form: ["csrf": csrf, "member": "Leads"])
            #expect(child.status == 200 && child.html.contains(#"<a href="/console/roles/\#(leads)">Leads</a>"#))
            #expect(try await danaFinds() == 1)
            // The relation's table (linked from the role's object page), and its next page: the
            // `$relatedTo` filter combined with the keyset cursor.
            let related = #"{"$relatedTo":{"object":{"__type":"Pointer","className":"_Role","objectId":"\#(leads)"},"key":"users"}}"#
            for query in [["where": related], ["where": related, "after": #"{"id":"0","v":null}"#]] {
                let table = try await consoleRequest(client, .get, "/console/data/_User?" + ConsoleQuery.encode(query), cookies: cookies)
                #expect(table.status == 200 && table.rowIds("_User") == [dana.id], "\(query)")
            }
            let parent = try await consoleRequest(client, .get, "/console/roles/\(leads)", cookies: cookies)
            #expect(parent.html.contains(#"<a href="/console/roles/\#(staff)">Staff</a>"#), "Leads shows the role it inherits")
            for (action, member) in [("add-user", "nobody"), ("add-role", staff), ("add-role", #"{"$ne":null}"#), ("add-user", "a\u{0}")] {
                let refused = try await consoleRequest(
                    client, .post, "/console/roles/\(staff)/\(action)", cookies: cookies, form: ["csrf": csrf, "member": member])
                #expect(refused.status == 400, "\(action) \(member)")
            }
            let list = try await consoleRequest(client, .get, "/console/roles", cookies: cookies)
            #expect(list.html.contains(#"<a href="/console/roles/\#(staff)">Staff</a>"#) && list.html.contains("r *"))
            let events =
                try await call(client, .get, "/parse/classes/_Audit?order=-createdAt&limit=50", master: true).json["results"]?.arrayValue ?? []
            let types = events.compactMap { event in event["type"]?.stringValue.map { $0 + " " + (event["admin"]?.stringValue ?? "") } }
            #expect(types.contains("admin.role.created ops") && types.filter { $0 == "admin.role.updated ops" }.count == 4)
        }
    }
}
