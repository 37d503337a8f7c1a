import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopMail
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// Triggers around writes, reads and logins, on every route that reaches them, with Parse's
/// rules: before-triggers change or refuse, after-triggers only observe.
@Suite struct TriggerTests: LiveServerTest {
    /// What the triggers saw, in order.
    final class Journal: Sendable {
        let lines = LockedBox([String]())
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> Reply {
        try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"a long password 1"}"#)
    }

    static func cloud(_ journal: Journal) -> CloudCode {
        var cloud = CloudCode()
        cloud.beforeSave("Post") { request in
            journal.add("beforeSave Post new=\(request.isNew) by=\(request.userId ?? "-")")
            if request.value("title")?.stringValue == "forbidden" { throw ParseError(.validationError, "That title is not allowed.") }
            // Derived by the server; a client's own value is overwritten.
            if let title = request.value("title")?.stringValue { request.object["slug"] = .string(title.lowercased()) }
            if request.value("title")?.stringValue == "sneaky" { request.object["bad name!"] = 1 }
        }
        cloud.afterSave("Post") { request in
            journal.add("afterSave Post \(request.object["slug"]?.stringValue ?? "?") was=\(request.original?["slug"]?.stringValue ?? "-")")
            // An audit object, written explicitly with the master key.
            _ = try await request.objects.create(
                "AuditEntry", ["post": .string(request.objectId ?? ""), "by": .string(request.userId ?? "-")], as: .master)
            if request.object["title"] == "fails after" { throw ParseError(.otherCause, "after-save failure the client never sees") }
        }
        cloud.beforeDelete("Post") { request in
            if request.object["locked"] == true { throw ParseError(.operationForbidden, "Locked posts stay.") }
        }
        cloud.afterDelete("Post") { request in journal.add("afterDelete Post \(request.object["slug"]?.stringValue ?? "?")") }
        cloud.beforeFind("Post") { request in
            if request.headers["x-deny"] != nil { throw ParseError(.operationForbidden, "No reading today.") }
            // Hidden posts never come back, whatever the client asked.
            let asked = request.object["where"] ?? [:]
            request.object["where"] = ["$and": [asked, ["hidden": ["$ne": true]]]]
        }
        cloud.afterFind("Post") { request in journal.add("afterFind Post \(request.results.count)") }
        cloud.beforeSave("_User") { request in
            journal.add("beforeSave _User new=\(request.isNew) sees password=\(request.object["password"] != nil)")
            if request.value("username")?.stringValue == "root" { throw ParseError(.validationError, "Reserved name.") }
            if request.isNew { request.object["plan"] = "free" }
            request.object["password"] = "changed by trigger"  // ignored: credentials are not the trigger's
        }
        cloud.afterSave("_User") { request in journal.add("afterSave _User \(request.object["username"]?.stringValue ?? "?")") }
        cloud.beforeDelete("_User") { request in journal.add("beforeDelete _User \(request.object["username"]?.stringValue ?? "?")") }
        cloud.afterDelete("_User") { request in journal.add("afterDelete _User \(request.object["username"]?.stringValue ?? "?")") }
        cloud.beforeLogin { request in
            if request.object["banned"] == true { throw ParseError(.operationForbidden, "This account is banned.") }
        }
        cloud.afterLogin { request in journal.add("afterLogin \(request.object["username"]?.stringValue ?? "?")") }
        cloud.afterLogout { request in journal.add("afterLogout \(request.object["user"]?["objectId"]?.stringValue == nil ? "?" : "user")") }
        return cloud
    }

    @Test func saveTriggersChangeRefuseAndObserveOnEveryRoute() async throws {
        let journal = Journal()
        try await withServer(cloud: Self.cloud(journal)) { (client: any TestClientProtocol) async throws in
            let created = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"Hello","slug":"mine"}"#)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)").json["slug"] == "hello")
            #expect(try await call(client, .put, "/parse/classes/Post/\(id)", body: #"{"title":"Again"}"#).status == 200)
            #expect(journal.all.contains("afterSave Post again was=hello"))

            // A refusal stores nothing, through the class route, a batch item and a transaction.
            let refused = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"forbidden"}"#)
            #expect(refused.json == ["code": 142, "error": "That title is not allowed."])
            let batch = #"{"requests":[{"method":"POST","path":"/parse/classes/Post","body":{"title":"forbidden"}}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: batch).json.arrayValue?.first?["error"]?["code"] == 142)
            let transaction = #"""
                {"transaction":true,"requests":[{"method":"POST","path":"/parse/classes/Post","body":{"title":"fine"}},
                                                {"method":"PUT","path":"/parse/classes/Post/\#(id)","body":{"title":"forbidden"}}]}
                """#
            #expect(try await call(client, .post, "/parse/batch", body: transaction).json["code"] == 142)
            // The trigger's own changes are checked like the client's: a bad field name is 105.
            #expect(try await call(client, .post, "/parse/classes/Post", body: #"{"title":"sneaky"}"#).json["code"] == 105)
            let titles = try await call(client, .get, "/parse/classes/Post", master: true).json["results"]?.arrayValue?.compactMap {
                $0["title"]?.stringValue
            }
            #expect(titles == ["Again"])

            // The after-save wrote its audit objects; its failure never reaches the client.
            #expect(try await call(client, .post, "/parse/classes/Post", body: #"{"title":"fails after"}"#).status == 201)
            let audit = try await call(client, .get, "/parse/classes/AuditEntry", master: true)
            #expect(audit.json["results"]?.arrayValue?.count == 3)

            // Someone who may read but not write the post: no trigger runs for a change they
            // cannot make (101, as Parse).
            let eveToken = try #require(try await signUp(client, "eve").json["sessionToken"]?.stringValue)
            let readOnly = #"{"title":"Read only","ACL":{"*":{"read":true}}}"#
            let protected = try #require(
                try await call(client, .post, "/parse/classes/Post", body: readOnly, master: true).json["objectId"]?.stringValue)
            let before = journal.all.count
            let refusedUpdate = try await call(
                client, .put, "/parse/classes/Post/\(protected)", body: #"{"title":"mine now"}"#, headers: ["X-Parse-Session-Token": eveToken])
            #expect(refusedUpdate.status == 404)
            #expect(try await call(client, .delete, "/parse/classes/Post/\(protected)", headers: ["X-Parse-Session-Token": eveToken]).status == 404)
            #expect(journal.all.count == before)

            // Deletes: refused while locked (the object stays), observed afterwards.
            #expect(try await call(client, .put, "/parse/classes/Post/\(id)", body: #"{"locked":true}"#).status == 200)
            #expect(try await call(client, .delete, "/parse/classes/Post/\(id)").json == ["code": 119, "error": "Locked posts stay."])
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)").status == 200)
            #expect(try await call(client, .put, "/parse/classes/Post/\(id)", body: #"{"locked":false}"#).status == 200)
            #expect(try await call(client, .delete, "/parse/classes/Post/\(id)").status == 200)
            #expect(journal.all.contains("afterDelete Post again"))
        }
    }

    @Test func findTriggersNarrowAndRefuseReads() async throws {
        let journal = Journal()
        try await withServer(cloud: Self.cloud(journal)) { (client: any TestClientProtocol) async throws in
            _ = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"Shown"}"#)
            let hidden = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"Secret","hidden":true}"#)
            let hiddenId = try #require(hidden.json["objectId"]?.stringValue)
            let found = try await call(client, .get, "/parse/classes/Post")
            #expect(found.json["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Shown"])
            // A client cannot ask around the trigger's condition, by query or by id.
            let asked = try await call(client, .get, "/parse/classes/Post?where=\(encoded(#"{"hidden":true}"#))")
            #expect(asked.json["results"]?.arrayValue?.count == 0)
            #expect(try await call(client, .get, "/parse/classes/Post/\(hiddenId)").status == 404)
            #expect(journal.all.contains("afterFind Post 1"))
            // No way around the trigger through a pointer's include or a subquery.
            let links =
                #"{"posts":[{"__type":"Pointer","className":"Post","objectId":"\#(hiddenId)"}],"one":{"__type":"Pointer","className":"Post","objectId":"\#(hiddenId)"}}"#
            let linkId = try #require(try await call(client, .post, "/parse/classes/Link", body: links).json["objectId"]?.stringValue)
            let included = try await call(client, .get, "/parse/classes/Link/\(linkId)?include=one")
            #expect(included.json["one"]?["title"] == nil && included.json["one"]?["__type"] == "Pointer", "\(included.json)")
            let subquery = #"{"one":{"$inQuery":{"where":{"hidden":true},"className":"Post"}}}"#
            #expect(try await call(client, .get, "/parse/classes/Link?where=\(encoded(subquery))").json["code"] == 102)
            // A client's own `where` on a get is still refused, as without triggers.
            #expect(try await call(client, .get, "/parse/classes/Post/\(hiddenId)?where=%7B%7D").json["code"] == 102)
            let denied = try await call(client, .get, "/parse/classes/Post", headers: ["X-Deny": "1"])
            #expect(denied.json == ["code": 119, "error": "No reading today."])
        }
    }

    @Test func accountRoutesRunTheUserTriggers() async throws {
        let journal = Journal()
        try await withServer(cloud: Self.cloud(journal)) { (client: any TestClientProtocol) async throws in
            #expect(try await signUp(client, "root").json == ["code": 142, "error": "Reserved name."])
            let ana = try await signUp(client, "ana")
            #expect(ana.status == 201)
            let id = try #require(ana.json["objectId"]?.stringValue)
            let token = try #require(ana.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token]).json["plan"] == "free")
            #expect(journal.all.contains("beforeSave _User new=true sees password=false"))
            #expect(journal.all.contains("afterSave _User ana"))
            // The password the client chose stands; the trigger's is ignored.
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"a long password 1"}"#)
            #expect(login.status == 200)
            #expect(journal.all.contains("afterLogin ana"))
            // An update through /users and a refused rename.
            #expect(
                try await call(client, .put, "/parse/users/\(id)", body: #"{"username":"root"}"#, headers: ["X-Parse-Session-Token": token]).json[
                    "code"]
                    == 142)
            #expect(
                try await call(client, .put, "/parse/users/\(id)", body: #"{"city":"Kyoto"}"#, headers: ["X-Parse-Session-Token": token]).status
                    == 200)
            #expect(journal.all.contains("beforeSave _User new=false sees password=false"))

            // A banned user's correct password makes no session.
            #expect(try await call(client, .put, "/parse/users/\(id)", body: #"{"banned":true}"#, master: true).status == 200)
            let sessionsBefore = try await call(client, .get, "/parse/sessions", master: true).json["results"]?.arrayValue?.count
            let banned = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"a long password 1"}"#)
            #expect(banned.json == ["code": 119, "error": "This account is banned."])
            #expect(try await call(client, .get, "/parse/sessions", master: true).json["results"]?.arrayValue?.count == sessionsBefore)

            #expect(try await call(client, .post, "/parse/logout", headers: ["X-Parse-Session-Token": token]).status == 200)
            #expect(journal.all.contains("afterLogout user"))
            #expect(try await call(client, .delete, "/parse/users/\(id)", master: true).status == 200)
            #expect(journal.all.contains("beforeDelete _User ana") && journal.all.contains("afterDelete _User ana"))
        }
    }

    /// A function's writes run the triggers of what they write; a trigger that outlives its
    /// limit fails the write with 124 and stores nothing.
    @Test func handlersWritesRunTriggersAndSlowTriggersTimeOut() async throws {
        let journal = Journal()
        let clock = TestClock()
        var cloud = Self.cloud(journal)
        cloud.define("post") { request in .string(try await request.objects.create("Post", ["title": "From Function"], as: .caller)) }
        cloud.beforeSave("Slow", timeout: .seconds(2)) { _ in try await Task.sleep(for: .seconds(3600)) }
        try await withServer(clock: clock, cloud: cloud) { (client: any TestClientProtocol) async throws in
            let id = try #require(try await call(client, .post, "/parse/functions/post", body: "{}").json["result"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)").json["slug"] == "from function")

            let before = clock.sleeping
            async let slow = call(client, .post, "/parse/classes/Slow", body: #"{"a":1}"#)
            try await clock.untilSleeping(before + 1)
            clock.advance(by: .seconds(2))
            #expect(try await slow.json["code"] == 124)
            #expect(try await call(client, .get, "/parse/classes/Slow", master: true).json["results"]?.arrayValue?.count == 0)
        }
    }
}
