import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Bounds on what one request may do: fields per class, `hint`, passwords in URLs, counted
/// regex repetition, and where a create's `Location` points.
@Suite struct BoundsTests: LiveServerTest {
    func fields(_ range: Range<Int>, prefix: String = "f") -> String {
        "{" + range.map { #""\#(prefix)\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    }

    @Test func fieldsPerClassAreCapped() async throws {
        try await withServer(configure: { services, _ in services.maxFieldsPerClass = 20 }) { (client: any TestClientProtocol) async throws in
            // 4 default fields + 16 of ours is the cap.
            let tooMany = try await call(client, .post, "/parse/classes/Wide", body: fields(0..<17))
            #expect(tooMany.status == 400)
            #expect(tooMany.json["code"] == 255)
            #expect(try await call(client, .get, "/parse/schemas/Wide", master: true).json["code"] == 103)
            let made = try await call(client, .post, "/parse/classes/Wide", body: fields(0..<10))
            let id = try #require(made.json["objectId"]?.stringValue)
            // An update that would go over is refused and changes nothing.
            #expect(try await call(client, .put, "/parse/classes/Wide/\(id)", body: fields(0..<10, prefix: "g")).json["code"] == 255)
            #expect(try await call(client, .get, "/parse/classes/Wide/\(id)").json["g0"] == nil)
            // Writing the existing fields is fine.
            #expect(try await call(client, .put, "/parse/classes/Wide/\(id)", body: fields(0..<10)).status == 200)
            // The same growth by the other doors: /schemas, a batch, with the master key.
            let schema = #"{"fields":{"# + (0..<7).map { #""s\#($0)":{"type":"Number"}"# }.joined(separator: ",") + "}}"
            #expect(try await call(client, .put, "/parse/schemas/Wide", body: schema, master: true).json["code"] == 255)
            #expect(try await call(client, .post, "/parse/schemas/Wider", body: schema, master: true).status == 200)
            let batch = #"{"requests":[{"method":"POST","path":"/parse/classes/Wide","body":\#(fields(0..<7, prefix: "b"))}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: batch).json.arrayValue?.first?["error"]?["code"] == 255)
            #expect(try await call(client, .post, "/parse/classes/Wide", body: fields(0..<17, prefix: "m"), master: true).json["code"] == 255)
            let stored = try await call(client, .get, "/parse/schemas/Wide", master: true)
            #expect(stored.json["fields"]?.objectValue?.count == 14)  // 4 defaults + 10
        }
    }

    @Test func tenThousandFieldsUnderTheDefaultCap() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/classes/Huge", body: fields(0..<10_000)).json["code"] == 255)
            #expect(try await call(client, .get, "/parse/schemas/Huge", master: true).json["code"] == 103)
            #expect(try await call(client, .post, "/parse/classes/Huge", body: fields(0..<900)).status == 201)
        }
    }

    @Test func hintIsRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            _ = try await call(client, .post, "/parse/classes/T", body: #"{"a":1}"#)
            #expect(try await call(client, .get, "/parse/classes/T?hint=_id_").json["code"] == 102)
            #expect(try await call(client, .get, "/parse/classes/T?hint=%7B%22a%22%3A1%7D", master: true).json["code"] == 102)
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"_method":"GET","hint":"_id_"}"#).json["code"] == 102)
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"_method":"GET","hint":null}"#).json["code"] == 102)
            let batch = #"{"requests":[{"method":"GET","path":"/parse/classes/T","body":{"hint":"x"}}]}"#
            let batched = try await call(client, .post, "/parse/batch", body: batch)
            #expect(batched.json.arrayValue?.first?["success"] == nil)
            #expect(try await call(client, .get, "/parse/classes/T").json["results"]?.arrayValue?.count == 1)
            // Aggregates too, rather than ignoring them.
            for parameter in ["hint=_id_", "explain=true"] {
                let aggregate = try await call(client, .get, "/parse/aggregate/T?distinct=a&\(parameter)", master: true)
                #expect(aggregate.json["code"] == 102, "\(parameter)")
            }
            #expect(try await call(client, .get, "/parse/aggregate/T?distinct=a", master: true).json["results"] == [1])
        }
    }

    @Test func passwordsInURLsCanBeTurnedOff() async throws {
        let user = #"{"username":"ana","password":"a long pass phrase"}"#
        try await withServer(configure: { _, http in http.allowPasswordInQuery = false }) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/users", body: user).status == 201)
            for path in ["/parse/login", "/parse/verifyPassword"] {
                let query = "\(path)?username=ana&password=\(encoded("a long pass phrase"))"
                let refused = try await call(client, .get, query)
                #expect(refused.json["code"] == 119, "\(path): \(refused.json)")
                // The same password in the URL of a POST, or a wrong one, is refused the same way.
                #expect(try await call(client, .post, query).json["code"] == 119)
                #expect(try await call(client, .get, "\(path)?username=ana&password=x").json["code"] == 119)
                // In the body it works, as the SDKs send it (`_method` GET included).
                #expect(try await call(client, .post, path, body: user).status == 200)
                let sdk = #"{"_method":"GET","username":"ana","password":"a long pass phrase"}"#
                #expect(try await call(client, .post, path, body: sdk).status == 200)
            }
            // The refusal says nothing of whether the password was right.
            #expect(try await call(client, .get, "/parse/login?username=nobody&password=x").json["code"] == 119)
        }
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/users", body: user).status == 201)
            #expect(try await call(client, .get, "/parse/login?username=ana&password=\(encoded("a long pass phrase"))").status == 200)
        }
    }

    @Test func reversedRepetitionIsRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            _ = try await call(client, .post, "/parse/classes/T", body: #"{"name":"aa"}"#)
            for pattern in ["a{2,1}", "^(ab){3,0}", "a{1,99999}"] {
                let reply = try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"name":{"$regex":"\#(pattern)"}}"#))")
                #expect(reply.json["code"] == 102, "\(pattern): \(reply.json)")
            }
            let ok = try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"name":{"$regex":"^a{1,2}$"}}"#))")
            #expect(ok.json["results"]?.arrayValue?.count == 1)
        }
    }

    /// The `Location` of a create comes from `publicServerURL`, never from the `Host` a client sends.
    @Test func locationUsesTheConfiguredURL() async throws {
        try await withServer(configure: { _, http in http.publicURL = "https://api.example.com/parse/" }) {
            (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            for (path, body) in [("/parse/classes/T", #"{"a":1}"#), ("/parse/users", #"{"username":"u","password":"a long pass phrase"}"#)] {
                let text =
                    "POST \(path) HTTP/1.1\r\nHost: evil.example\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                    + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                let reply = try await blocking {
                    let socket = try RawSocket(port: port)
                    socket.send(text)
                    return socket.receiveUntilClosed().text
                }
                #expect(RawSocket.status(reply) == 201)
                let location = reply.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") }
                let expectedPrefix = "https://api.example.com/parse\(path.dropFirst("/parse".count))/"
                #expect(location.map { $0.dropFirst("location: ".count).hasPrefix(expectedPrefix) } == true, "\(reply)")
                #expect(!reply.contains("evil.example"))
            }
        }
    }
}
