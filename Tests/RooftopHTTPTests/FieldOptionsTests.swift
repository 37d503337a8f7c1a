import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// `/schemas` field options `required` and `defaultValue`, as Parse enforces them (the SDKs
/// send `"required": false` on every field they add).
@Suite struct FieldOptionsTests: LiveServerTest {
    @Test func requiredFalseAsSDKsSendIt() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let body = #"{"className":"Item","fields":{"name":{"type":"String","required":false}}}"#
            let created = try await call(client, .post, "/parse/schemas/Item", body: body, master: true)
            #expect(created.status == 200, "\(created.json)")
            #expect(created.json["fields"]?["name"] == ["type": "String", "required": false])
            let added = try await call(
                client, .put, "/parse/schemas/Item", body: #"{"fields":{"size":{"type":"Number","required":false}}}"#, master: true)
            #expect(added.status == 200)
            #expect(try await call(client, .post, "/parse/classes/Item", body: "{}").status == 201)
            #expect(
                try await call(client, .get, "/parse/schemas/Item", master: true).json["fields"]?["size"] == ["type": "Number", "required": false])
        }
    }

    @Test func requiredAndDefaultsOnCreateAndUpdate() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let body = #"""
                {"fields":{
                  "title":{"type":"String","required":true},
                  "status":{"type":"String","required":true,"defaultValue":"draft"},
                  "count":{"type":"Number","defaultValue":0},
                  "due":{"type":"Date","defaultValue":{"__type":"Date","iso":"2030-01-01T00:00:00.000Z"}},
                  "owner":{"type":"Pointer","targetClass":"_User","required":false}}}
                """#
            let created = try await call(client, .post, "/parse/schemas/Task", body: body, master: true)
            #expect(created.status == 200, "\(created.json)")
            let listed = try await call(client, .get, "/parse/schemas", master: true)
            let task = listed.json["results"]?.arrayValue?.first { $0["className"] == "Task" }
            #expect(task?["fields"]?["status"] == ["type": "String", "required": true, "defaultValue": "draft"])
            #expect(task?["fields"]?["owner"] == ["type": "Pointer", "targetClass": "_User", "required": false])

            // Required: missing, null, empty and deleted are all "no value"; so by batch.
            for value in ["", #","title":null"#, #","title":"""#, #","title":{"__op":"Delete"}"#] {
                let missing = try await call(client, .post, "/parse/classes/Task", body: #"{"x":1\#(value)}"#)
                #expect(missing.status == 400)
                #expect(missing.json == ["code": 142, "error": "title is required"])
            }
            let batch = #"{"requests":[{"method":"POST","path":"/parse/classes/Task","body":{}}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: batch).json.arrayValue?.first?["error"]?["code"] == 142)
            // A default fills a missing value, but not an explicit null (as Parse).
            #expect(try await call(client, .post, "/parse/classes/Task", body: #"{"title":"a","status":null}"#).json["code"] == 142)
            let made = try await call(client, .post, "/parse/classes/Task", body: #"{"title":"a"}"#)
            #expect(made.status == 201)
            let id = try #require(made.json["objectId"]?.stringValue)
            let read = try await call(client, .get, "/parse/classes/Task/\(id)")
            #expect(read.json["status"] == "draft")
            #expect(read.json["count"] == 0)
            #expect(read.json["due"]?["iso"] == "2030-01-01T00:00:00.000Z")
            #expect(read.json["owner"] == nil)
            let given = try await call(client, .post, "/parse/classes/Task", body: #"{"title":"b","status":"done","count":7}"#)
            let other = try await call(client, .get, "/parse/classes/Task/\(try #require(given.json["objectId"]?.stringValue))")
            #expect(other.json["status"] == "done" && other.json["count"] == 7)

            // An update may leave a required field alone but not clear it.
            #expect(try await call(client, .put, "/parse/classes/Task/\(id)", body: #"{"count":1}"#).status == 200)
            for clear in ["null", #""""#, #"{"__op":"Delete"}"#] {
                #expect(try await call(client, .put, "/parse/classes/Task/\(id)", body: #"{"title":\#(clear)}"#).json["code"] == 142)
            }
            #expect(try await call(client, .get, "/parse/classes/Task/\(id)").json["title"] == "a")

            // Deleting the field drops its options with it.
            _ = try await call(client, .put, "/parse/schemas/Task", body: #"{"fields":{"title":{"__op":"Delete"}}}"#, master: true)
            #expect(try await call(client, .post, "/parse/classes/Task", body: "{}").status == 201)
        }
    }

    /// The account routes create and update `_User` too: the options hold there as well.
    @Test func userFieldOptionsOnAccountRoutes() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let fields = #"{"fields":{"displayName":{"type":"String","required":true},"plan":{"type":"String","defaultValue":"free"}}}"#
            let added = try await call(client, .post, "/parse/schemas/_User", body: fields, master: true)
            #expect(added.status == 200, "\(added.json)")
            for path in ["/parse/users", "/parse/classes/_User"] {
                let missing = try await call(client, .post, path, body: #"{"username":"ann","password":"correct horse 1"}"#)
                #expect(missing.json == ["code": 142, "error": "displayName is required"], "\(path)")
                let cleared = try await call(client, .post, path, body: #"{"username":"ann","password":"correct horse 1","displayName":""}"#)
                #expect(cleared.json["code"] == 142, "\(path)")
            }
            // Nothing was created: the name is still free, and login finds nobody.
            #expect(try await call(client, .get, "/parse/login?username=ann&password=correct%20horse%201").json["code"] == 101)
            let created = try await call(client, .post, "/parse/users", body: #"{"username":"ann","password":"correct horse 1","displayName":"Ann"}"#)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            let token = try #require(created.json["sessionToken"]?.stringValue)
            let me = try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token])
            #expect(me.json["plan"] == "free" && me.json["displayName"] == "Ann")
            // The user can't clear it, by either route or with `_method`.
            for clear in ["null", #""""#, #"{"__op":"Delete"}"#] {
                let reply = try await call(
                    client, .put, "/parse/users/\(id)", body: #"{"displayName":\#(clear)}"#, headers: ["X-Parse-Session-Token": token])
                #expect(reply.json["code"] == 142, "\(clear): \(reply.json)")
                let method = try await call(
                    client, .post, "/parse/classes/_User/\(id)", body: #"{"_method":"PUT","displayName":\#(clear)}"#,
                    headers: ["X-Parse-Session-Token": token])
                #expect(method.json["code"] == 142, "_method \(clear): \(method.json)")
            }
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token]).json["displayName"] == "Ann")
            // Other fields still change.
            #expect(
                try await call(client, .put, "/parse/users/\(id)", body: #"{"plan":"pro"}"#, headers: ["X-Parse-Session-Token": token]).status == 200)
        }
    }

    /// Options of the wrong kind are refused and nothing is created.
    @Test func hostileOptions() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let cases: [(String, Int)] = [
                (#"{"a":{"type":"Number","defaultValue":"zero"}}"#, 111),
                (#"{"a":{"type":"String","defaultValue":{"$gt":""}}}"#, 111),
                (#"{"a":{"type":"String","defaultValue":{"__op":"Delete"}}}"#, 111),
                (#"{"a":{"type":"Pointer","targetClass":"_User","defaultValue":{"__type":"Pointer","className":"Other","objectId":"x"}}}"#, 111),
                (#"{"a":{"type":"Relation","targetClass":"_User","required":true}}"#, 111),
                (#"{"a":{"type":"Relation","targetClass":"_User","defaultValue":{"__op":"AddRelation","objects":[]}}}"#, 111),
                (#"{"a":{"type":"String","required":"yes"}}"#, 111),
                (#"{"a":{"type":"String","required":{"$ne":false}}}"#, 111),
                (#"{"a":{"type":"ACL","defaultValue":{"*":{"read":true}}}}"#, 111),
                (#"{"a":{"type":"String","unique":true}}"#, 107),
                (#"{"a":{"type":"String","defaultValue":"\u0000"}}"#, 111),
            ]
            for (fields, code) in cases {
                let reply = try await call(client, .post, "/parse/schemas/Bad", body: #"{"fields":\#(fields)}"#, master: true)
                #expect(reply.json["code"] == .number(Double(code)), "\(fields): \(reply.json)")
                #expect(try await call(client, .get, "/parse/schemas/Bad", master: true).json["code"] == 103)
            }
            let huge = String(repeating: "x", count: 200_000)
            let big = try await call(
                client, .post, "/parse/schemas/Big", body: #"{"fields":{"a":{"type":"String","defaultValue":"\#(huge)"}}}"#, master: true)
            #expect(big.status == 200)
            // An existing field's options can't be changed by re-adding it.
            let again = try await call(client, .put, "/parse/schemas/Big", body: #"{"fields":{"a":{"type":"String","required":true}}}"#, master: true)
            #expect(again.json["code"] == 255)
        }
    }
}
