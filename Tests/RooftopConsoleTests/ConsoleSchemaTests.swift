import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The console's schema pages over real HTTP against a real database: each change shows in
/// `GET /schemas` with the master key; each refusal is the API's (same message and code, shown
/// on the page) and changes nothing; read-only admins, missing CSRF tokens, internal classes
/// and hostile names are refused.
@Suite struct ConsoleSchemaTests: LiveServerTest {
    static let password = "console passphrase 1"

    /// A signed-in console admin: its session cookie and CSRF token.
    struct Admin {
        let session: String
        let csrf: String
    }

    func signIn(_ client: any TestClientProtocol, _ stores: StoreBox, role: ConsoleRole = .owner, name: String = "ops") async throws -> Admin {
        try await consoleAdmins(try stores.store).create(name: name, password: Self.password, role: role, totp: false)
        let session = try #require(try await consoleSignIn(client, name, Self.password).session)
        return Admin(session: session, csrf: try await consoleCSRF(client, session: session))
    }

    func post(_ client: any TestClientProtocol, _ admin: Admin, _ path: String, _ form: [String: String]) async throws -> ConsolePage {
        var form = form
        if form["csrf"] == nil { form["csrf"] = admin.csrf }
        return try await consoleRequest(client, .post, "/console/schema" + path, cookies: ["rooftop_console": admin.session], form: form)
    }

    func get(_ client: any TestClientProtocol, _ admin: Admin, _ path: String) async throws -> ConsolePage {
        try await consoleRequest(client, .get, "/console/schema" + path, cookies: ["rooftop_console": admin.session])
    }

    func schema(_ client: any TestClientProtocol, _ className: String) async throws -> JSON {
        try await call(client, .get, "/parse/schemas/\(className)", master: true).json
    }

    func classNames(_ client: any TestClientProtocol) async throws -> [String] {
        let all = try await call(client, .get, "/parse/schemas", master: true).json
        return (all["results"]?.arrayValue ?? []).compactMap { $0["className"]?.stringValue }.sorted()
    }

    /// Text as mustache writes it into a page.
    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Expects `page` to show the API's refusal `reply` (message and code) with status 400.
    func expectRefusal(_ page: ConsolePage, _ reply: Reply, _ note: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // The twin class the API was asked about has another name.
        let message = (reply.json["error"]?.stringValue ?? "?").replacingOccurrences(of: "Twin", with: "Game")
        let code = reply.json["code"]?.intValue ?? -1
        #expect(reply.status >= 400, "the API refuses \(note)", sourceLocation: sourceLocation)
        #expect(page.status == 400 || page.status == 404, "\(note): \(page.status)", sourceLocation: sourceLocation)
        #expect(page.html.contains(Self.html("\(message) (code \(code))")), "\(note): \(message)", sourceLocation: sourceLocation)
    }

    @Test func classesAreListedCreatedAndDeletedAsTheAPIDoes() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admin = try await signIn(client, stores)
            let list = try await get(client, admin, "")
            #expect(list.status == 200)
            let created = try await post(client, admin, "", ["className": "GameScore"])
            #expect(created.status == 200)
            #expect(created.html.contains("<h1>GameScore</h1>"))
            #expect(try await get(client, admin, "").html.contains("href=\"/console/schema/GameScore\""))
            #expect(try await schema(client, "GameScore")["className"] == "GameScore")
            // Refusals: the API's message and code, and no class appears.
            let before = try await classNames(client)
            let hostile = [
                "GameScore", "", "a$b", "a.b", "x\u{0}y", String(repeating: "A", count: 10_240), "_CONSOLE", "__proto__", "{\"$gt\":\"\"}",
                "_Audit",
            ]
            for name in hostile {
                let page = try await post(client, admin, "", ["className": name])
                let json = JSONWriter.string(["className": .string(name)])
                let api = try await call(client, .post, "/parse/schemas", body: json, master: true)
                expectRefusal(page, api, "create \(name.prefix(20))")
            }
            #expect(try await classNames(client) == before)
            // Delete: a typed confirmation, and the API refuses a class with objects.
            #expect(try await call(client, .post, "/parse/classes/GameScore", body: #"{"score":1}"#).status == 201)
            let mismatch = try await post(client, admin, "/GameScore/delete", ["confirm": "gamescore"])
            #expect(mismatch.status == 400)
            #expect(mismatch.html.contains("The typed name does not match"))
            let notEmpty = try await post(client, admin, "/GameScore/delete", ["confirm": "GameScore"])
            let api = try await call(client, .delete, "/parse/schemas/GameScore", master: true)
            expectRefusal(notEmpty, api, "delete a class with objects")
            #expect(try await classNames(client).contains("GameScore"))
            let objects = try await call(client, .get, "/parse/classes/GameScore", master: true)
            for object in objects.json["results"]?.arrayValue ?? [] {
                let id = object["objectId"]?.stringValue ?? ""
                #expect(try await call(client, .delete, "/parse/classes/GameScore/\(id)", master: true).status == 200)
            }
            let deleted = try await post(client, admin, "/GameScore/delete", ["confirm": "GameScore"])
            #expect(deleted.status == 200)
            #expect(deleted.html.contains("The class was deleted."))
            #expect(try await schema(client, "GameScore")["code"] == 103)
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.schema.changed%22%7D", master: true)
            let details = (events.json["results"]?.arrayValue ?? []).compactMap { $0["detail"]?.stringValue }
            #expect(details.contains("GameScore: class created") && details.contains("GameScore: class deleted"))
            #expect(events.json["results"]?.arrayValue?.first?["admin"] == "ops")
        }
    }

    @Test func fieldsAreAddedAndRemovedThroughTheAPIsRules() async throws {
        let stores = StoreBox()
        try await withServer(configure: { services, _ in services.maxFieldsPerClass = 12 }, wrap: stores.keep) { client in
            let admin = try await signIn(client, stores)
            #expect(try await call(client, .post, "/parse/schemas/Game", body: "{}", master: true).status == 200)
            #expect(try await call(client, .post, "/parse/schemas/Twin", body: "{}", master: true).status == 200)
            let adds: [[String: String]] = [
                ["name": "score", "type": "Number", "required": "on", "defaultValue": "0"],
                ["name": "owner", "type": "Pointer", "targetClass": "_User"],
                ["name": "startsAt", "type": "Date", "defaultValue": "2026-01-02T03:04:05.000Z"],
                ["name": "meta", "type": "Object", "defaultValue": #"{"level":2}"#],
                ["name": "title", "type": "String", "defaultValue": "untitled"],
                ["name": "players", "type": "Relation", "targetClass": "_User"],
            ]
            for form in adds {
                let page = try await post(client, admin, "/Game/fields", form)
                #expect(page.status == 200, "\(form)")
                #expect(page.html.contains("The schema was saved."))
            }
            let fields = try await schema(client, "Game")["fields"]
            #expect(fields?["score"] == ["type": "Number", "required": true, "defaultValue": 0])
            #expect(fields?["owner"] == ["type": "Pointer", "targetClass": "_User"])
            #expect(fields?["startsAt"]?["defaultValue"]?["iso"] == "2026-01-02T03:04:05.000Z")
            #expect(fields?["meta"]?["defaultValue"] == ["level": 2])
            #expect(fields?["title"]?["defaultValue"] == "untitled")
            #expect(fields?["players"] == ["type": "Relation", "targetClass": "_User"])
            let page = try await get(client, admin, "/Game")
            #expect(page.html.contains("<code>score</code>") && page.html.contains("<td>Pointer</td><td>_User</td>"))
            #expect(page.html.contains("action=\"/console/schema/Game/delete\"") && page.html.contains("data-confirm-name=\"Game\""))
            // Refusals, each compared with the API's answer to the same change of an equal class.
            let refused: [([String: String], String)] = [
                (["name": "score", "type": "Number"], #"{"fields":{"score":{"type":"Number"}}}"#),
                (["name": "score", "type": "String"], #"{"fields":{"score":{"type":"String"}}}"#),
                (["name": "objectId", "type": "String"], #"{"fields":{"objectId":{"type":"String"}}}"#),
                (["name": "a$b", "type": "String"], #"{"fields":{"a$b":{"type":"String"}}}"#),
                (["name": "a.b", "type": "String"], #"{"fields":{"a.b":{"type":"String"}}}"#),
                (["name": "x\u{0}y", "type": "String"], #"{"fields":{"x\u0000y":{"type":"String"}}}"#),
                (["name": "__proto__", "type": "String"], #"{"fields":{"__proto__":{"type":"String"}}}"#),
                (["name": "constructor", "type": "String"], #"{"fields":{"constructor":{"type":"String"}}}"#),
                (["name": "n", "type": "Number", "defaultValue": "abc"], #"{"fields":{"n":{"type":"Number","defaultValue":"abc"}}}"#),
                (["name": "b", "type": "Boolean", "defaultValue": "yes"], #"{"fields":{"b":{"type":"Boolean","defaultValue":"yes"}}}"#),
                (["name": "p", "type": "Pointer", "targetClass": ""], #"{"fields":{"p":{"type":"Pointer","targetClass":""}}}"#),
                (
                    ["name": "r", "type": "Relation", "targetClass": "_User", "required": "on"],
                    #"{"fields":{"r":{"type":"Relation","targetClass":"_User","required":true}}}"#
                ),
                (["name": "acl", "type": "ACL"], #"{"fields":{"acl":{"type":"ACL"}}}"#),
                (["name": "t", "type": "{\"$ne\":1}"], #"{"fields":{"t":{"type":"{\"$ne\":1}"}}}"#),
                (["name": "s", "type": "String", "defaultValue": "a\u{0}b"], #"{"fields":{"s":{"type":"String","defaultValue":"a\u0000b"}}}"#),
            ]
            // Twin gets the same fields Game has, so "exists" and "type change" compare alike.
            _ = try await call(client, .put, "/parse/schemas/Twin", body: #"{"fields":{"score":{"type":"Number"}}}"#, master: true)
            let before = try await schema(client, "Game")
            for (form, body) in refused {
                let page = try await post(client, admin, "/Game/fields", form)
                let api = try await call(client, .put, "/parse/schemas/Twin", body: body, master: true)
                expectRefusal(page, api, "add \(form)")
            }
            // A 10 KB name and a deep or huge default: refused like the API, nothing stored.
            let long = String(repeating: "f", count: 10_240)
            expectRefusal(
                try await post(client, admin, "/Game/fields", ["name": long, "type": "String"]),
                try await call(client, .put, "/parse/schemas/Twin", body: #"{"fields":{"\#(long)":{"type":"String"}}}"#, master: true), "long name")
            let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            let deepPage = try await post(client, admin, "/Game/fields", ["name": "deep", "type": "Array", "defaultValue": deep])
            #expect(deepPage.status == 400 && deepPage.html.contains("(code 111)"), "too deep to read: passed on as text, refused by type")
            // A form over the 64 KiB cap is refused before it is read.
            let huge = "{\"k\":\"" + String(repeating: "x", count: 70_000) + "\"}"
            #expect(try await post(client, admin, "/Game/fields", ["name": "huge", "type": "Object", "defaultValue": huge]).status == 413)
            #expect(try await schema(client, "Game") == before)
            // A large default within the cap is the API's to take, as `PUT /schemas` takes it.
            let large = "{\"k\":\"" + String(repeating: "x", count: 40_000) + "\"}"
            #expect(try await post(client, admin, "/Game/fields", ["name": "large", "type": "Object", "defaultValue": large]).status == 200)
            #expect(try await schema(client, "Game")["fields"]?["large"]?["defaultValue"]?["k"]?.stringValue?.count == 40_000)
            #expect(try await post(client, admin, "/Game/remove-field", ["field": "large", "confirm": "large"]).status == 200)
            // The field cap (12 here, with the 4 built-in fields and 6 added): the API's 255.
            #expect(try await post(client, admin, "/Game/fields", ["name": "extra1", "type": "String"]).status == 200)
            #expect(try await post(client, admin, "/Game/fields", ["name": "extra2", "type": "String"]).status == 200)
            let full = try await post(client, admin, "/Game/fields", ["name": "extra3", "type": "String"])
            #expect(full.status == 400 && full.html.contains("at most 12 are allowed (maxFieldsPerClass). (code 255)"))
            // A form of 1,000 fields is read as its first 50 pairs: one field at most, never a flood.
            var flood = ["name": "extra3", "type": "String"]
            for index in 0..<1_000 { flood["f\(index)"] = "String" }
            #expect(try await post(client, admin, "/Game/fields", flood).status == 400)
            #expect(try await schema(client, "Game")["fields"]?.objectValue?.count == 12)
            // Removing: typed confirmation, then the API's rules (built-in fields stay).
            let wrong = try await post(client, admin, "/Game/remove-field", ["field": "title", "confirm": "titel"])
            #expect(wrong.status == 400 && wrong.html.contains("The typed name does not match"))
            expectRefusal(
                try await post(client, admin, "/Game/remove-field", ["field": "objectId", "confirm": "objectId"]),
                try await call(client, .put, "/parse/schemas/Twin", body: #"{"fields":{"objectId":{"__op":"Delete"}}}"#, master: true), "built-in")
            expectRefusal(
                try await post(client, admin, "/Game/remove-field", ["field": "nope", "confirm": "nope"]),
                try await call(client, .put, "/parse/schemas/Twin", body: #"{"fields":{"nope":{"__op":"Delete"}}}"#, master: true), "missing")
            #expect(try await schema(client, "Game")["fields"]?["title"] != nil)
            #expect(try await post(client, admin, "/Game/remove-field", ["field": "title", "confirm": "title"]).status == 200)
            #expect(try await schema(client, "Game")["fields"]?["title"] == nil)
            // A write of the wrong type to the new field: the API's 111.
            let wrongType = try await call(client, .post, "/parse/classes/Game", body: #"{"score":"high"}"#)
            #expect(wrongType.json["code"] == 111)
        }
    }

    @Test func indexesAreAddedAndRemoved() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admin = try await signIn(client, stores)
            let body = #"{"fields":{"score":{"type":"Number"},"name":{"type":"String"}}}"#
            for name in ["Game", "Twin"] { #expect(try await call(client, .post, "/parse/schemas/\(name)", body: body, master: true).status == 200) }
            let added = try await post(
                client, admin, "/Game/indexes", ["index": "by_score", "field1": "score", "direction1": "-1", "field2": "name", "direction2": "1"])
            #expect(added.status == 200)
            #expect(try await schema(client, "Game")["indexes"]?["by_score"] == ["score": -1, "name": 1])
            _ = try await call(client, .put, "/parse/schemas/Twin", body: #"{"indexes":{"by_score":{"score":-1}}}"#, master: true)
            let before = try await schema(client, "Game")
            let refused: [([String: String], String)] = [
                (["index": "by_score", "field1": "score"], #"{"indexes":{"by_score":{"score":1}}}"#),
                (["index": "by_nope", "field1": "nope"], #"{"indexes":{"by_nope":{"nope":1}}}"#),
                (["index": "empty"], #"{"indexes":{"empty":{}}}"#),
                (["index": "a$b", "field1": "score"], #"{"indexes":{"a$b":{"score":1}}}"#),
                (["index": "_id_", "field1": "score"], #"{"indexes":{"_id_":{"score":1}}}"#),
                (["index": "x", "field1": "a.b"], #"{"indexes":{"x":{"a.b":1}}}"#),
            ]
            for (form, body) in refused {
                expectRefusal(
                    try await post(client, admin, "/Game/indexes", form),
                    try await call(client, .put, "/parse/schemas/Twin", body: body, master: true),
                    "index \(form)")
            }
            expectRefusal(
                try await post(client, admin, "/Game/remove-index", ["index": "nope"]),
                try await call(client, .put, "/parse/schemas/Twin", body: #"{"indexes":{"nope":{"__op":"Delete"}}}"#, master: true), "remove missing")
            #expect(try await schema(client, "Game") == before)
            #expect(try await post(client, admin, "/Game/remove-index", ["index": "by_score"]).status == 200)
            #expect(try await schema(client, "Game")["indexes"]?["by_score"] == nil)
        }
    }
}
