import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import RooftopCore
import RooftopHTTP
import RooftopSQLite
import RooftopServices
import RooftopTesting
import Testing

/// Scenarios over real loopback HTTP against a real SQLite file.
@Suite struct ObjectRoutesTests: LiveServerTest {
    @Test func createQueryAndACLDenial() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let created = try await call(
                client, .post, "/parse/classes/Note", body: #"{"title":"secret","ACL":{"ownerId123":{"read":true,"write":true}}}"#)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(id.count == 10)
            // Another caller: the object does not exist for them, in get, find and update alike.
            #expect(try await call(client, .get, "/parse/classes/Note/\(id)").json == ["code": 101, "error": "Object not found."])
            #expect(try await call(client, .get, "/parse/classes/Note/\(id)").status == 404)
            #expect(try await call(client, .get, "/parse/classes/Note?count=1").json["count"] == 0)
            #expect(try await call(client, .put, "/parse/classes/Note/\(id)", body: #"{"title":"x"}"#).status == 404)
            // The master key sees it.
            let fetched = try await call(client, .get, "/parse/classes/Note/\(id)", master: true)
            #expect(fetched.json["title"] == "secret")
            #expect(fetched.json["ACL"]?["ownerId123"]?["write"] == true)
        }
    }

    @Test func updateEchoesOperationsAndQueriesFilter() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try #require(
                try await call(client, .post, "/parse/classes/Game", body: #"{"score":1,"tags":["a"]}"#).json["objectId"]?.stringValue)
            _ = try await call(client, .post, "/parse/classes/Game", body: #"{"score":50}"#)
            let updated = try await call(
                client, .put, "/parse/classes/Game/\(id)", body: #"{"score":{"__op":"Increment","amount":2},"tags":{"__op":"Add","objects":["b"]}}"#)
            #expect(updated.json["score"] == 3)
            #expect(updated.json["tags"] == ["a", "b"])
            #expect(updated.json["updatedAt"]?.stringValue != nil)
            let whereJSON = #"{"score":{"$lt":10}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let found = try await call(client, .get, "/parse/classes/Game?where=\(whereJSON)&keys=score")
            #expect(found.json["results"]?.arrayValue?.count == 1)
            #expect(found.json["results"]?.arrayValue?.first?["tags"] == nil)
            // _method override: a POST that is really a GET, as the JS SDK sends it.
            let viaPost = try await call(client, .post, "/parse/classes/Game", body: #"{"_method":"GET","where":{"score":{"$gt":10}}}"#)
            #expect(viaPost.json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test func badInputGetsParseErrors() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(
                try await call(client, .post, "/parse/classes/Note", body: "{}", appId: "wrong").json == [
                    "error": "unauthorized: X-Parse-Application-Id is missing or wrong"
                ])
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"a":1,"a":2}"#).json["code"] == 107)
            #expect(try await call(client, .post, "/parse/classes/Note", body: "{\"a\":\"\u{FFFD}\"").json["code"] == 107)
            #expect(try await call(client, .post, "/parse/classes/Bad-Name", body: "{}").json["code"] == 103)
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"x\"; DROP TABLE":1}"#).json["code"] == 105)
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"a":{"__op":"Explode"}}"#).json["code"] == 108)
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"constructor":{"a":1}}"#).json["code"] == 105)
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"n":1}"#).status == 201)
            let mismatch = try await call(client, .post, "/parse/classes/Note", body: #"{"n":"one"}"#)
            #expect(mismatch.status == 400)
            #expect(mismatch.json["code"] == 111)
            #expect(try await call(client, .get, "/parse/classes/Note?order=n;drop").json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/Note?bogus=1").json["code"] == 102)
            let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"a":\#(deep)}"#).json["code"] == 107)
            let big = "{\"a\":\"" + String(repeating: "x", count: 2 << 20) + "\"}"
            #expect(try await call(client, .post, "/parse/classes/Note", body: big).status == 413)
            // Nothing of the above was stored.
            #expect(try await call(client, .get, "/parse/classes/Note?count=1&limit=0").json["count"] == 1)
        }
    }

    @Test func healthAndInternalClasses() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .get, "/parse/health").json == ["status": "ok"])
            // The request an unmodified Parse-Swift (`ParseHealth.check()`) sends: POST, no body,
            // its usual headers.
            var headers = HTTPFields()
            for (name, value) in [
                ("X-Parse-Application-Id", testAppId), ("X-Parse-Client-Version", "swift5.12.3"), ("X-Parse-Request-Id", UUID().uuidString),
                ("X-Parse-Installation-Id", UUID().uuidString.lowercased()), ("Content-Type", "application/json"), ("Accept", "*/*"),
            ] {
                headers[HTTPField.Name(name)!] = value
            }
            let swift = try await client.execute(uri: "/parse/health", method: .post, headers: headers) { response in
                (response.status.code, try JSONParser.parse(Array(response.body.readableBytesView)))
            }
            #expect(swift.0 == 200 && swift.1 == ["status": "ok"], "\(swift)")
            // Any method, keys or none, as Parse Server.
            for method in [HTTPRequest.Method.post, .put, .delete] {
                let reply = try await client.execute(uri: "/parse/health", method: method) { ($0.status.code, String(buffer: $0.body)) }
                #expect(reply.0 == 200 && reply.1 == #"{"status":"ok"}"#, "\(method): \(reply)")
            }
            #expect(try await call(client, .get, "/parse/classes/_Session").json["code"] == 119)
            #expect(try await call(client, .post, "/parse/classes/_JobStatus", body: "{}").json["code"] == 119)
        }
    }
}
