import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The class-level permissions grid over real HTTP: what it saves is what `GET /schemas` shows
/// and what the API then enforces; bad entries are the API's refusals; read-only admins,
/// missing CSRF tokens and internal classes are refused and change nothing.
@Suite struct ConsoleSchemaPermissionTests: LiveServerTest {
    let helper = ConsoleSchemaTests()

    @Test func theGridSetsWhatTheAPIEnforces() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admin = try await helper.signIn(client, stores)
            let body = #"{"fields":{"owner":{"type":"Pointer","targetClass":"_User"},"secret":{"type":"String"},"title":{"type":"String"}}}"#
            for name in ["Game", "Twin"] { #expect(try await call(client, .post, "/parse/schemas/\(name)", body: body, master: true).status == 200) }
            let page = try await helper.get(client, admin, "/Game")
            #expect(page.html.contains("Anyone can read (get, find, count), create, update, delete and add fields."))
            #expect(page.html.contains("name=\"get:pointer:owner\""), "a pointer column for the Pointer<_User> field")
            #expect(!page.html.contains("name=\"create:pointer:owner\""), "create has no pointer permission")
            let form = [
                "get:*": "on", "find:*": "on", "count:*": "on", "create:auth": "on", "update:pointer:owner": "on", "delete:pointer:owner": "on",
                "addField:new": "on", "newEntry": "role:Admin", "readUserFields:pointer:owner": "on",
                "protected": "* = secret\nuserField:owner = ", "end": "1",
            ]
            let saved = try await helper.post(client, admin, "/Game/permissions", form)
            #expect(saved.status == 200)
            let clp = try await helper.schema(client, "Game")["classLevelPermissions"]
            #expect(clp?["get"] == ["*": true] && clp?["find"] == ["*": true] && clp?["count"] == ["*": true])
            #expect(clp?["create"] == ["requiresAuthentication": true])
            #expect(clp?["update"] == ["pointerFields": ["owner"]] && clp?["delete"] == ["pointerFields": ["owner"]])
            #expect(clp?["addField"] == ["role:Admin": true])
            #expect(clp?["readUserFields"] == ["owner"])
            #expect(clp?["protectedFields"] == ["*": ["secret"], "userField:owner": []])
            #expect(saved.html.contains("Signed-in users can create."))
            #expect(saved.html.contains("Only the user in <code>owner</code> can update and delete."))
            #expect(saved.html.contains("<code>secret</code> is hidden from everyone but the user in <code>owner</code>."))
            #expect(saved.html.contains("name=\"addField:role:Admin\" value=\"on\" aria-label=\"addField · role:Admin\" checked"))
            // The API enforces it: a create without a session is refused, with one it succeeds.
            let anonymous = try await call(client, .post, "/parse/classes/Game", body: #"{"title":"t"}"#)
            // Parse's answer to a missing session where one is required: 101, not 119.
            #expect(anonymous.json["code"] == 101)
            #expect(anonymous.json["error"] == "Permission denied, user needs to be authenticated.")
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let created = try await call(
                client, .post, "/parse/classes/Game", body: #"{"title":"t","secret":"s"}"#, headers: ["X-Parse-Session-Token": token])
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Game/\(id)").json["secret"] == nil, "protected from everyone")
            // Refusals are the API's, and change nothing.
            let before = try await helper.schema(client, "Game")
            _ = try await call(client, .put, "/parse/schemas/Twin", body: #"{"classLevelPermissions":{"get":{"*":true}}}"#, master: true)
            let refused: [([String: String], String)] = [
                (["get:new": "on", "newEntry": "role:"], #"{"get":{"role:":true}}"#),
                (["get:new": "on", "newEntry": "constructor"], #"{"get":{"constructor":true}}"#),
                (["get:new": "on", "newEntry": "{\"$gt\":\"\"}"], #"{"get":{"{\"$gt\":\"\"}":true}}"#),
                (["get:new": "on", "newEntry": "x\u{0}y"], #"{"get":{"x\u0000y":true}}"#),
                (["get:pointer:title": "on"], #"{"get":{"pointerFields":["title"]}}"#),
                (["get:pointer:nope": "on"], #"{"get":{"pointerFields":["nope"]}}"#),
                (["get:pointer:a$b": "on"], #"{"get":{"pointerFields":["a$b"]}}"#),
                (["protected": "* = nope"], #"{"protectedFields":{"*":["nope"]}}"#),
                (["protected": "userField:title = secret"], #"{"protectedFields":{"userField:title":["secret"]}}"#),
                (["protected": "bad$scope = secret"], #"{"protectedFields":{"bad$scope":["secret"]}}"#),
                (["protected": "__proto__ = secret"], #"{"protectedFields":{"__proto__":["secret"]}}"#),
            ]
            for (fields, clpJSON) in refused {
                var form = fields
                form["end"] = "1"
                let page = try await helper.post(client, admin, "/Game/permissions", form)
                let api = try await call(client, .put, "/parse/schemas/Twin", body: #"{"classLevelPermissions":\#(clpJSON)}"#, master: true)
                helper.expectRefusal(page, api, "\(fields)")
            }
            // Not the API's to judge: a line without `=`, and a form cut at `maxFormPairs` (no `end`).
            let noEquals = try await helper.post(client, admin, "/Game/permissions", ["protected": "* secret", "end": "1"])
            #expect(noEquals.status == 400 && noEquals.html.contains("write each line as scope = field, field"))
            // The page puts `end` last: past the last pair read it is lost, and the grid is refused whole.
            let ticks = (0..<ConsoleResponder.maxFormPairs).map { "get%3Auser\($0)=on" }.joined(separator: "&")
            let cut = try await consolePostRaw(
                client, "/console/schema/Game/permissions", session: admin.session, body: "csrf=\(admin.csrf)&get%3A*=on&\(ticks)&end=1")
            #expect(cut.status == 400 && cut.html.contains("too many ticks"))
            #expect(try await helper.post(client, admin, "/Game/permissions", ["get:*": "on"]).status == 400, "no end marker")
            #expect(try await helper.schema(client, "Game") == before)
            // Nothing ticked: master only, as an empty operation map is in Parse.
            #expect(try await helper.post(client, admin, "/Game/permissions", ["end": "1"]).status == 200)
            let locked = try await helper.schema(client, "Game")["classLevelPermissions"]
            #expect(locked?["get"] == [:] && locked?["create"] == [:])
            #expect(try await call(client, .get, "/parse/classes/Game").json["code"] == 119)
        }
    }

    @Test func readOnlyAdminsMissingTokensAndInternalClassesAreRefused() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let owner = try await helper.signIn(client, stores)
            let viewer = try await helper.signIn(client, stores, role: .readOnly, name: "viewer")
            #expect(
                try await call(client, .post, "/parse/schemas/Game", body: #"{"fields":{"title":{"type":"String"}}}"#, master: true).status == 200)
            let before = try await call(client, .get, "/parse/schemas", master: true).json
            let page = try await helper.get(client, viewer, "/Game")
            #expect(page.status == 200 && page.html.contains("<code>title</code>"))
            #expect(!page.html.contains("action=\"/console/schema/Game/"), "no change forms for a read-only admin")
            #expect(!(try await helper.get(client, viewer, "")).html.contains("name=\"className\""))
            let actions: [(String, [String: String])] = [
                ("", ["className": "Other"]), ("/Game/fields", ["name": "score", "type": "Number"]),
                ("/Game/remove-field", ["field": "title", "confirm": "title"]), ("/Game/indexes", ["index": "i", "field1": "title"]),
                ("/Game/remove-index", ["index": "i"]), ("/Game/permissions", ["end": "1"]), ("/Game/delete", ["confirm": "Game"]),
            ]
            for (path, form) in actions {
                #expect(try await helper.post(client, viewer, path, form).status == 403, "read-only \(path)")
                for token in ["", "wrong", owner.csrf + "x"] {
                    var forged = form
                    forged["csrf"] = token
                    #expect(try await helper.post(client, owner, path, forged).status == 403, "csrf \(path)")
                }
                var anonymous = form
                anonymous["csrf"] = owner.csrf
                let noCookie = try await consoleRequest(client, .post, "/console/schema" + path, form: anonymous)
                #expect(noCookie.status == 403)
            }
            // Internal and unknown classes: the console never reaches `_CONSOLE`.
            for name in ["_CONSOLE", "__proto__", "Nope", "a$b", String(repeating: "A", count: 10_240), "%00"] {
                #expect(try await helper.get(client, owner, "/\(name)").status == 404, "\(name.prefix(10))")
                #expect(try await helper.post(client, owner, "/\(name)/fields", ["name": "x", "type": "String"]).status == 404)
                #expect(try await helper.post(client, owner, "/\(name)/delete", ["confirm": name]).status == 404)
            }
            // The audit log: readable, never changed (the API's own refusal).
            #expect(try await helper.get(client, owner, "/_Audit").status == 200)
            let audit = try await helper.post(client, owner, "/_Audit/fields", ["name": "x", "type": "String"])
            helper.expectRefusal(
                audit, try await call(client, .put, "/parse/schemas/_Audit", body: #"{"fields":{"x":{"type":"String"}}}"#, master: true), "audit")
            #expect(try await call(client, .get, "/parse/schemas", master: true).json == before)
        }
    }
}

extension LiveServerTest {
    /// A console POST with a hand-written body (the pairs in the order given).
    func consolePostRaw(_ client: any TestClientProtocol, _ uri: String, session: String, body: String) async throws -> ConsolePage {
        var headers = HTTPFields()
        headers[.cookie] = "rooftop_console=\(session)"
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            ConsolePage(status: Int(response.status.code), headers: response.headers, html: String(buffer: response.body))
        }
    }
}
