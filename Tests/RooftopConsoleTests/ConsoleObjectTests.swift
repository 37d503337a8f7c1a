import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServer
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// One object in the console over real HTTP: typed editors sending only changed fields through
/// the API's update (triggers and validations run), the ACL grid changing what a user's query
/// finds, create, delete with confirmation, the account classes' limits, and refusals.
@Suite struct ConsoleObjectTests: LiveServerTest {
    static func cloud() -> CloudCode {
        var cloud = CloudCode()
        cloud.beforeSave("Post") { request in
            if request.value("title")?.stringValue == "forbidden" { throw ParseError(.validationError, "That title is not allowed.") }
        }
        return cloud
    }

    func auditTypes(_ client: any TestClientProtocol) async throws -> [(String, String, String)] {
        let events = try await call(client, .get, "/parse/classes/_Audit?order=-createdAt&limit=50", master: true)
        return (events.json["results"]?.arrayValue ?? []).map {
            ($0["type"]?.stringValue ?? "", $0["admin"]?.stringValue ?? "", $0["detail"]?.stringValue ?? "")
        }
    }

    @Test func editorsSaveOnlyChangedFieldsThroughTheAPI() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep, cloud: Self.cloud()) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let author = try await signUp(client, "author")
            let id = try await masterCreate(
                client, "Post",
                #"{"title":"hello","views":3,"draft":true,"at":{"__type":"Date","iso":"2026-01-02T03:04:05.000Z"},"tags":["a"],"meta":{"k":1},"#
                    + #""place":{"__type":"GeoPoint","latitude":1.5,"longitude":2},"author":{"__type":"Pointer","className":"_User","objectId":"\#(author.id)"}}"#
            )
            let page = try await consoleRequest(client, .get, "/console/data/Post/\(id)", cookies: cookies)
            #expect(page.status == 200)
            for expected in [
                #"name="v:title" value="hello""#, #"name="v:views" type="number" step="any" value="3""#, #"<option value="true" selected>"#,
                #"type="datetime-local" step="1" value="2026-01-02T03:04:05""#, #"name="v:author" value="\#(author.id)""#,
                #"name="lng:place" type="number" step="any" value="2""#, "[&quot;a&quot;]",
            ] {
                #expect(page.html.contains(expected), "\(expected)")
            }
            let original = ConsolePage.unescape(try #require(page.hidden("orig")))
            // Someone changes `views` after the page was shown: the console's save leaves it.
            _ = try await call(client, .put, "/parse/classes/Post/\(id)", body: #"{"views":99}"#, master: true)
            var form = [
                "csrf": csrf, "orig": original, "v:title": "changed", "v:views": "3", "v:draft": "false", "v:at": "2026-05-06T07:08:09",
                "v:tags": #"["a","b"]"#, "v:meta": #"{"k":1}"#, "v:place": "10", "lng:place": "20", "v:author": author.id,
            ]
            let saved = try await consoleRequest(client, .post, "/console/data/Post/\(id)/save", cookies: cookies, form: form)
            #expect(saved.status == 200, "\(saved.html.prefix(500))")
            let stored = try await call(client, .get, "/parse/classes/Post/\(id)", master: true).json
            #expect(stored["title"] == "changed" && stored["draft"] == false && stored["views"] == 99)
            #expect(stored["at"]?["iso"] == "2026-05-06T07:08:09.000Z" && stored["tags"] == ["a", "b"])
            #expect(stored["place"]?["latitude"] == 10 && stored["place"]?["longitude"] == 20)
            #expect(try await auditTypes(client).first { $0.0 == "admin.object.updated" }.map { $0.1 + " " + $0.2 } == "ops Post \(id)")
            // A trigger's refusal and a bad value show the API's message; nothing changes.
            form["orig"] = nil
            for (field, value, message) in [
                ("v:title", "forbidden", "That title is not allowed."), ("v:tags", "[1,", "JSON"), ("v:views", "many", "views"),
                ("v:author", "a/b", "author"),
            ] {
                let refused = try await consoleRequest(
                    client, .post, "/console/data/Post/\(id)/save", cookies: cookies, form: ["csrf": csrf, field: value])
                #expect(refused.status == 400, "\(field)")
                #expect(refused.html.contains("role=\"alert\"") && refused.html.contains(message), "\(field): \(message)")
            }
            let huge = try await consoleRequest(
                client, .post, "/console/data/Post/\(id)/save", cookies: cookies,
                form: ["csrf": csrf, "v:title": String(repeating: "x", count: 70_000)])
            #expect(huge.status == 413, "a form is capped at 64 KiB")
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)", master: true).json["title"] == "changed")
            // Emptying a box removes the field; operators in a string field are only text.
            let emptied = try await consoleRequest(
                client, .post, "/console/data/Post/\(id)/save", cookies: cookies,
                form: ["csrf": csrf, "v:meta": "", "v:title": #"{"$gt":""}"#])
            #expect(emptied.status == 200)
            let after = try await call(client, .get, "/parse/classes/Post/\(id)", master: true).json
            #expect(after["meta"] == nil && after["title"] == #"{"$gt":""}"#)
        }
    }

    /// What browsers do to an untouched editor's text is not a change: a text area's CRLF line
    /// breaks, a `datetime-local` without its zero seconds.
    @Test func untouchedEditorsAsBrowsersSendThemChangeNothing() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep, cloud: Self.cloud()) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let id = try await masterCreate(
                client, "Post",
                #"{"title":"hello","body":"line one\nline two","at":{"__type":"Date","iso":"2026-01-02T03:04:00.500Z"},"#
                    + #""doc":{"__type":"File","name":"report.txt","url":"https://evil.example/x"}}"#)
            let page = try await consoleRequest(client, .get, "/console/data/Post/\(id)", cookies: cookies)
            #expect(!page.html.contains("evil.example") && page.html.contains("/files/"), "a file links where the API serves it")
            #expect(page.html.contains(#"<textarea id="v-body" name="v:body""#), "several lines get a text area")
            let original = ConsolePage.unescape(try #require(page.hidden("orig")))
            let form = [
                "csrf": csrf, "orig": original, "v:title": "changed", "v:body": "line one\r\nline two", "v:at": "2026-01-02T03:04",
            ]
            let saved = try await consoleRequest(client, .post, "/console/data/Post/\(id)/save", cookies: cookies, form: form)
            #expect(saved.status == 200)
            let stored = try await call(client, .get, "/parse/classes/Post/\(id)", master: true).json
            #expect(stored["title"] == "changed" && stored["body"] == "line one\nline two")
            #expect(stored["at"]?["iso"] == "2026-01-02T03:04:00.500Z", "the milliseconds are kept: the date was not sent")
        }
    }

    /// An object of a class with more fields than the hosted pages' 50-pair forms is saved: the
    /// console reads its forms up to `maxFormPairs`.
    @Test func anObjectWithManyFieldsIsSaved() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let fields = (0..<80).map { "\"f\($0)\":\"v\($0)\"" }.joined(separator: ",")
            let id = try await masterCreate(client, "Wide", "{\(fields)}")
            let page = try await consoleRequest(client, .get, "/console/data/Wide/\(id)", cookies: cookies)
            var form = ["csrf": csrf, "orig": ConsolePage.unescape(try #require(page.hidden("orig")))]
            for n in 0..<80 { form["v:f\(n)"] = "v\(n)" }
            form["v:f77"] = "changed"
            let saved = try await consoleRequest(client, .post, "/console/data/Wide/\(id)/save", cookies: cookies, form: form)
            #expect(saved.status == 200)
            let stored = try await call(client, .get, "/parse/classes/Wide/\(id)", master: true).json
            #expect(stored["f77"] == "changed" && stored["f0"] == "v0" && stored["f79"] == "v79")
        }
    }

    @Test func aclGridChangesWhatAUsersQueryFinds() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let a = try await signUp(client, "alice")
            let b = try await signUp(client, "bob")
            let id = try await masterCreate(client, "Note", #"{"text":"secret","ACL":{"\#(a.id)":{"read":true,"write":true}}}"#)
            func bobFinds() async throws -> Int {
                try await call(client, .get, "/parse/classes/Note", headers: ["X-Parse-Session-Token": b.token]).json["results"]?.arrayValue?.count
                    ?? -1
            }
            #expect(try await bobFinds() == 0)
            let page = try await consoleRequest(client, .get, "/console/data/Note/\(id)", cookies: cookies)
            #expect(page.html.contains("alice (\(a.id))"))
            #expect(page.html.contains(#"name="r:\#(a.id)" aria-label="Read: alice (\#(a.id))" checked"#))
            // Bob added by username, read only; alice keeps read and write.
            let saved = try await consoleRequest(
                client, .post, "/console/data/Note/\(id)/acl", cookies: cookies,
                form: ["csrf": csrf, "r:\(a.id)": "on", "w:\(a.id)": "on", "addKey": "bob", "addRead": "on"])
            #expect(saved.status == 200)
            #expect(try await bobFinds() == 1)
            let acl = try await call(client, .get, "/parse/classes/Note/\(id)", master: true).json["ACL"]
            #expect(acl == [a.id: ["read": true, "write": true], b.id: ["read": true]])
            // Unticking removes; an unknown user or a bad entry is refused and nothing changes.
            for form in [["addKey": "nobody", "addRead": "on"], ["addKey": "role:", "addRead": "on"], ["addKey": "x\u{0}", "addRead": "on"]] {
                let refused = try await consoleRequest(
                    client, .post, "/console/data/Note/\(id)/acl", cookies: cookies,
                    form: form.merging(["csrf": csrf, "r:\(b.id)": "on"]) { a, _ in a })
                #expect(refused.status == 400, "\(form)")
            }
            #expect(try await bobFinds() == 1)
            _ = try await consoleRequest(client, .post, "/console/data/Note/\(id)/acl", cookies: cookies, form: ["csrf": csrf, "r:role:Staff": "on"])
            #expect(try await bobFinds() == 0)
            #expect(try await call(client, .get, "/parse/classes/Note/\(id)", master: true).json["ACL"] == ["role:Staff": ["read": true]])
        }
    }

    @Test func createAndDeleteWithConfirmation() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep, cloud: Self.cloud()) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            _ = try await masterCreate(client, "Post", #"{"title":"first","views":1}"#)
            let form = try await consoleRequest(client, .get, "/console/data/Post/new", cookies: cookies)
            #expect(form.status == 200 && form.html.contains(#"action="/console/data/Post/new""#))
            let refused = try await consoleRequest(
                client, .post, "/console/data/Post/new", cookies: cookies, form: ["csrf": csrf, "v:title": "forbidden"])
            #expect(refused.status == 400 && refused.html.contains("That title is not allowed."))
            let created = try await consoleRequest(
                client, .post, "/console/data/Post/new", cookies: cookies, form: ["csrf": csrf, "v:title": "second", "v:views": "2"])
            #expect(created.status == 200)
            let found = try await call(client, .get, "/parse/classes/Post?where=%7B%22title%22:%22second%22%7D", master: true)
            let id = try #require(found.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            #expect(found.json["results"]?.arrayValue?.first?["views"] == 2)
            // The owner's page offers the delete form, asking for the objectId to be typed.
            let page = try await consoleRequest(client, .get, "/console/data/Post/\(id)", cookies: cookies)
            #expect(page.html.contains("action=\"/console/data/Post/\(id)/delete\"") && page.html.contains("data-confirm-name=\"\(id)\""))
            let wrong = try await consoleRequest(
                client, .post, "/console/data/Post/\(id)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": "x"])
            #expect(wrong.status == 400)
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)", master: true).status == 200)
            let deleted = try await consoleRequest(
                client, .post, "/console/data/Post/\(id)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": id])
            #expect(deleted.status == 200)
            #expect(try await call(client, .get, "/parse/classes/Post/\(id)", master: true).status == 404)
            let replayed = try await consoleRequest(
                client, .post, "/console/data/Post/\(id)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": id])
            #expect(replayed.status == 404)
            let types = try await auditTypes(client).map { $0.0 + " " + $0.1 + " " + $0.2 }
            #expect(types.contains("admin.object.created ops Post \(id)") && types.contains("admin.object.deleted ops Post \(id)"))
            #expect(types.filter { $0.hasPrefix("admin.object.deleted") }.count == 1)
        }
    }

    @Test func accountClassesStayInTheirLane() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            let user = try await signUp(client, "carol")
            let page = try await consoleRequest(client, .get, "/console/data/_User/\(user.id)", cookies: cookies)
            #expect(page.status == 200 && page.html.contains(#"href="/console/users/\#(user.id)""#))
            for field in ["username", "email", "password", "authData", "sessionToken"] {
                #expect(!page.html.contains("name=\"v:\(field)\""), "\(field)")
            }
            let sent = try await consoleRequest(
                client, .post, "/console/data/_User/\(user.id)/save", cookies: cookies,
                form: ["csrf": csrf, "v:password": "new password 123", "v:username": "mallory", "v:authData": "{}", "v:sessionToken": "x"])
            #expect(sent.status == 200)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"carol","password":"a long password 1"}"#)
            #expect(login.status == 200, "the password and username did not change")
            // Sessions are shown, never changed here.
            let sessions = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": user.token])
            let sessionId = try #require(sessions.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let shown = try await consoleRequest(client, .get, "/console/data/_Session/\(sessionId)", cookies: cookies)
            #expect(shown.status == 200 && !shown.html.contains("/save\"") && !shown.html.contains("/delete\""))
            for action in ["save", "acl", "delete"] {
                let refused = try await consoleRequest(
                    client, .post, "/console/data/_Session/\(sessionId)/\(action)", cookies: cookies, form: ["csrf": csrf, "confirm": sessionId])
                #expect(refused.status == 403, "\(action)")
            }
            #expect(try await consoleRequest(client, .post, "/console/data/_Session/new", cookies: cookies, form: ["csrf": csrf]).status == 403)
            #expect(try await consoleRequest(client, .get, "/console/data/_User/new", cookies: cookies).status == 403)
            #expect(try await consoleRequest(client, .post, "/console/data/_User/new", cookies: cookies, form: ["csrf": csrf]).status == 403)
            #expect(try await call(client, .get, "/parse/users", master: true).json["results"]?.arrayValue?.count == 1)
            #expect(try await me(client, user.token)["username"] == "carol")
            // The audit log is written by the server only: the API's refusal, shown.
            let audit = try await call(client, .get, "/parse/classes/_Audit?limit=1", master: true)
            let eventId = try #require(audit.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let refused = try await consoleRequest(
                client, .post, "/console/data/_Audit/\(eventId)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": eventId])
            #expect(refused.status == 400 && refused.html.contains("The audit log is written by the server only."))
        }
    }

    @Test func readOnlyAdminsAndMissingTokensChangeNothing() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (owner, ownerCSRF) = try await consoleAdmin(client, stores)
            let (viewer, viewerCSRF) = try await consoleAdmin(client, stores, "viewer", role: .readOnly)
            let id = try await masterCreate(client, "Post", #"{"title":"keep"}"#)
            let role = try await masterCreate(client, "_Role", #"{"name":"Mods","ACL":{"*":{"read":true}}}"#)
            let page = try await consoleRequest(client, .get, "/console/data/Post/\(id)", cookies: ["rooftop_console": viewer])
            #expect(page.status == 200 && !page.html.contains("name=\"v:title\"") && !page.html.contains("/delete\""))
            let posts: [(String, [String: String])] = [
                ("/console/data/Post/\(id)/save", ["v:title": "changed"]), ("/console/data/Post/\(id)/acl", ["r:*": "on"]),
                ("/console/data/Post/\(id)/delete", ["confirm": id]), ("/console/data/Post/new", ["v:title": "new"]),
                ("/console/roles", ["name": "Viewers"]), ("/console/roles/\(role)/add-user", ["member": "x"]),
            ]
            for (path, form) in posts {
                let readOnly = try await consoleRequest(
                    client, .post, path, cookies: ["rooftop_console": viewer], form: form.merging(["csrf": viewerCSRF]) { a, _ in a })
                #expect(readOnly.status == 403, "read-only: \(path)")
                let noToken = try await consoleRequest(client, .post, path, cookies: ["rooftop_console": owner], form: form)
                #expect(noToken.status == 403, "no CSRF: \(path)")
                let otherToken = try await consoleRequest(
                    client, .post, path, cookies: ["rooftop_console": owner], form: form.merging(["csrf": viewerCSRF]) { a, _ in a })
                #expect(otherToken.status == 403, "another session's CSRF: \(path)")
            }
            _ = ownerCSRF
            let stored = try await call(client, .get, "/parse/classes/Post", master: true).json["results"]?.arrayValue
            #expect(stored?.count == 1 && stored?.first?["title"] == "keep")
            #expect(try await call(client, .get, "/parse/classes/_Role", master: true).json["results"]?.arrayValue?.count == 1)
        }
    }
}
