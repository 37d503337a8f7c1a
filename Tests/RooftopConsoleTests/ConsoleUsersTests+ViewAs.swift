import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

extension ConsoleUsersTests {
    /// The objectIds a view-as page lists, in order.
    static func viewed(_ page: ConsolePage) -> [String] {
        page.html.components(separatedBy: "<code class=\"oid\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func viewAsShowsExactlyWhatTheUsersSessionFinds() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await signUp(client, "ana")
            let bob = try await signUp(client, "bob")
            let role =
                #"{"name":"editors","ACL":{"*":{"read":true}},"users":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(ana.id)"}]}}"#
            #expect(try await call(client, .post, "/parse/roles", body: role, master: true).status == 201)
            var ids: [String: String] = [:]
            for (name, acl) in [
                ("public", #"{"*":{"read":true}}"#), ("anas", #"{"\#(ana.id)":{"read":true}}"#), ("bobs", #"{"\#(bob.id)":{"read":true}}"#),
                ("editors", #"{"role:editors":{"read":true}}"#), ("nobody", "{}"),
            ] {
                let body = #"{"name":"\#(name)","secret":"s-\#(name)","score":\#(name.count),"ACL":\#(acl)}"#
                ids[name] = try #require(try await call(client, .post, "/parse/classes/Note", body: body, master: true).json["objectId"]?.stringValue)
            }
            let clp =
                #"{"classLevelPermissions":{"find":{"*":true},"get":{"*":true},"count":{"*":true},"create":{"*":true},"update":{"*":true},"delete":{"*":true},"addField":{"*":true},"protectedFields":{"*":["secret"]}}}"#
            #expect(try await call(client, .put, "/parse/schemas/Note", body: clp, master: true).status == 200)
            let sessionsBefore = try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"]
            let session = try #require(try await consoleSignIn(client, "viewer", password).session)
            let cookies = ["rooftop_console": session]
            let userPage = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies)
            #expect(userPage.html.contains("action=\"/console/users/\(ana.id)/view-as\""))
            #expect(userPage.html.contains("<option value=\"Note\">Note</option>") && !userPage.html.contains("<option value=\"_Session\">"))
            for whereJSON in ["", #"{"score":{"$gt":4}}"#] {
                let rest = try await call(
                    client, .get, "/parse/classes/Note?limit=50" + (whereJSON.isEmpty ? "" : "&where=" + ConsoleTestForm.value(whereJSON)),
                    headers: ["X-Parse-Session-Token": ana.token])
                let expected = rest.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []
                let page = try await consoleRequest(
                    client, .get, "/console/users/\(ana.id)/view-as?class=Note&where=" + ConsoleTestForm.value(whereJSON), cookies: cookies)
                #expect(page.status == 200)
                #expect(Self.viewed(page) == expected, "\(whereJSON)")
                #expect(!page.html.contains("s-public") && !page.html.contains("s-anas"), "protected fields stay hidden")
                let hidden = [ids["bobs"], ids["nobody"]].compactMap { $0 }
                #expect(hidden.count == 2 && !Self.viewed(page).contains { hidden.contains($0) })
            }
            let all = try await consoleRequest(client, .get, "/console/users/\(ana.id)/view-as?class=Note", cookies: cookies)
            #expect(Set(Self.viewed(all)) == Set(["public", "anas", "editors"].compactMap { ids[$0] }))
            // A get by objectId: hers answers, bob's is not found for her.
            let own = try await consoleRequest(
                client, .get, "/console/users/\(ana.id)/view-as?class=Note&objectId=\(ids["anas"] ?? "")", cookies: cookies)
            #expect(Self.viewed(own) == [ids["anas"]].compactMap { $0 })
            let others = try await consoleRequest(
                client, .get, "/console/users/\(ana.id)/view-as?class=Note&objectId=\(ids["bobs"] ?? "")", cookies: cookies)
            #expect(others.status == 404)
            #expect(Self.viewed(others).isEmpty && others.html.contains("Object not found."))
            // Audited with the admin and the class; no session was made, nothing else written.
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.user.viewAs%22%7D", master: true)
            let details = events.json["results"]?.arrayValue?.compactMap { $0["detail"]?.stringValue } ?? []
            #expect(details.filter { $0 == "Note" }.count == 3)
            #expect(events.json["results"]?.arrayValue?.allSatisfy { $0["admin"] == "viewer" && $0["userId"]?.stringValue == ana.id } == true)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == sessionsBefore)
        }
    }

    @Test func viewAsRefusesWhatTheAPIRefusesAUser() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            _ = try await call(client, .post, "/parse/classes/Note", body: #"{"name":"x"}"#, master: true)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            func view(_ query: String) async throws -> ConsolePage {
                try await consoleRequest(client, .get, "/console/users/\(ana.id)/view-as?" + query, cookies: cookies)
            }
            for query in ["class=_Session", "class=_CONSOLE", "class=_Audit", "class=_Hooks", "class=Note%00", "class=%27%3B--"] {
                let page = try await view(query)
                #expect(page.status == 400, "\(query)")
                #expect(Self.viewed(page).isEmpty, "\(query)")
            }
            for whereJSON in [
                "[1]", "nope", #"{"name":{"$where":"1"}}"#, String(repeating: "[", count: 5000), #"{"name":"\u0000"}"#,
                "{\"name\":\"" + String(repeating: "a", count: 10_000) + "\"}",
            ] {
                let page = try await view("class=Note&where=" + ConsoleTestForm.value(whereJSON))
                #expect(page.status == 400, "\(whereJSON.prefix(30))")
                #expect(Self.viewed(page).isEmpty)
            }
            #expect(try await view("class=Note&objectId=%00x").status == 404)
            #expect(try await consoleRequest(client, .get, "/console/users/AAAAAAAAAA/view-as?class=Note", cookies: cookies).status == 404)
            // Refused views are not audited (nothing was seen).
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.user.viewAs%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.isEmpty == true)
            // A class nobody wrote to yet is empty for the user, as a REST find answers.
            let unknown = try await view("class=Nope")
            #expect(unknown.status == 200 && unknown.html.contains("This user sees no object here."))
        }
    }
}
