import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// Installation saves with hostile bodies: each refused with its Parse error, nothing stored.
@Suite struct InstallationHostileTests: LiveServerTest {
    static let device = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

    func save(_ client: any TestClientProtocol, _ fields: String, path: String = "/parse/installations") async throws -> Reply {
        try await call(client, .post, path, body: #"{"installationId":"\#(Self.device)","deviceType":"ios",\#(fields)}"#)
    }

    static let refusals: [(String, Int)] = [
        // Operators and objects where strings belong.
        (#""appVersion":{"$ne":null}"#, 111),
        (#""timeZone":{"$regex":".*"}"#, 111),
        (#""deviceToken":{"$gt":""}"#, 111),
        (#""badge":"3""#, 111),
        (#""badge":-1"#, 142),
        (#""badge":1.5"#, 142),
        (#""badge":{"__op":"Increment","amount":0.5}"#, 142),
        (#""channels":"news""#, 111),
        (#""channels":[1,2]"#, 111),
        (#""channels":["9lives"]"#, 112),
        (#""channels":["a b"]"#, 112),
        (#""channels":["drop;table"]"#, 112),
        (#""channels":{"__op":"AddUnique","objects":["ok","-bad"]}"#, 112),
        (#""timeZone":"Mars/Olympus_Mons""#, 142),
        (#""timeZone":"../../etc/passwd""#, 142),
        (#""appIdentifier":"a\u0000b""#, 142),
        (#""localeIdentifier":"en\nUS""#, 142),
        (#""deviceToken":"ab cd""#, 114),
        (#""deviceToken":"""#, 114),
        (#""deviceToken":"\#(String(repeating: "a", count: 1025))""#, 114),
        (#""appVersion":"\#(String(repeating: "v", count: 257))""#, 142),
        (#""channels":[\#((0..<501).map { "\"c\($0)\"" }.joined(separator: ","))]"#, 142),
        (#""channels":["\#(String(repeating: "c", count: 129))"]"#, 112),
        (#""channels.x":1"#, 111),
    ]

    @Test func typedFieldsAreValidated() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            for (fields, code) in Self.refusals {
                for path in ["/parse/installations", "/parse/classes/_Installation"] {
                    let reply = try await save(client, fields, path: path)
                    #expect(reply.json["code"]?.numberValue == Double(code), "\(fields.prefix(60)) on \(path): \(reply.json)")
                    #expect(reply.status == 400)
                }
            }
            // Nothing was stored by any of them.
            let all = try await call(client, .get, "/parse/installations", master: true)
            #expect(all.json["results"]?.arrayValue?.count == 0)
        }
    }

    @Test func identityFieldsAreCheckedToo() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let cases: [(String, Int)] = [
                (#"{"installationId":{"$ne":null},"deviceType":"ios"}"#, 111),
                (#"{"installationId":["a"],"deviceType":"ios"}"#, 111),
                (#"{"installationId":"","deviceType":"ios"}"#, 132),
                (#"{"installationId":"a\u0000b","deviceType":"ios"}"#, 132),
                (#"{"installationId":"\#(String(repeating: "f", count: 129))","deviceType":"ios"}"#, 132),
                (#"{"installationId":null,"deviceType":"ios"}"#, 136),
                (#"{"installationId":"\#(Self.device)","deviceType":"playstation"}"#, 142),
                (#"{"installationId":"\#(Self.device)","deviceType":{"$in":["ios"]}}"#, 111),
                (#"{"installationId":"\#(Self.device)","deviceType":"ios","installationId.x":"y"}"#, 111),
                (#"{"deviceType":"ios"}"#, 135),
            ]
            for (body, code) in cases {
                let reply = try await call(client, .post, "/parse/installations", body: body)
                #expect(reply.json["code"]?.numberValue == Double(code), "\(body.prefix(60)): \(reply.json)")
            }
            // A malformed header id is refused the same way.
            let header = try await call(
                client, .post, "/parse/installations", body: #"{"deviceType":"ios"}"#, headers: ["X-Parse-Installation-Id": "a b"])
            #expect(header.json["code"] == 132)
            #expect(try await call(client, .get, "/parse/installations", master: true).json["results"]?.arrayValue?.count == 0)
        }
    }

    /// Deep JSON and huge bodies are refused before the rules run; valid channel operations work,
    /// and a device can't grow its channel list past the cap one request at a time.
    @Test func boundsHold() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let deep = String(repeating: #"{"a":"#, count: 200) + "1" + String(repeating: "}", count: 200)
            let deepReply = try await save(client, #""extra":\#(deep)"#)
            #expect(deepReply.status == 400)
            let huge = try await save(client, #""appName":"\#(String(repeating: "x", count: 2 << 20))""#)
            #expect(huge.status == 413)

            let created = try await save(client, #""channels":["",  "news", "sport-2", "A_b"]"#)
            let id = try #require(created.json["objectId"]?.stringValue)
            let headers = ["X-Parse-Installation-Id": Self.device]
            let names = (0..<300).map { "\"c\($0)\"" }.joined(separator: ",")
            let first = try await call(
                client, .put, "/parse/installations/\(id)", body: #"{"channels":{"__op":"AddUnique","objects":[\#(names)]}}"#, headers: headers)
            #expect(first.status == 200)
            let second = try await call(
                client, .put, "/parse/installations/\(id)", body: #"{"channels":{"__op":"Add","objects":[\#(names)]}}"#, headers: headers)
            #expect(second.json["code"] == 142)
            let stored = try await call(client, .get, "/parse/installations/\(id)", headers: headers)
            #expect(stored.json["channels"]?.arrayValue?.count == 304)
            let removed = try await call(
                client, .put, "/parse/installations/\(id)", body: #"{"channels":{"__op":"Remove","objects":["news"]}}"#, headers: headers)
            #expect(removed.status == 200)
            let cleared = try await call(
                client, .put, "/parse/installations/\(id)", body: #"{"badge":{"__op":"Delete"},"timeZone":{"__op":"Delete"}}"#, headers: headers)
            #expect(cleared.status == 200)
        }
    }

    /// Batches reach the same rules; a transaction can't carry installation writes.
    @Test func batchesFollowTheSameRules() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let item = #"{"method":"POST","path":"/parse/installations","body":{"installationId":"\#(Self.device)","deviceType":"ios"}}"#
            let find = #"{"method":"GET","path":"/parse/classes/_Installation"}"#
            let batch = try await call(client, .post, "/parse/batch", body: #"{"requests":[\#(item),\#(item),\#(find)]}"#)
            let items = try #require(batch.json.arrayValue)
            #expect(items.count == 3)
            #expect(items[0]["success"]?["objectId"]?.stringValue != nil)
            #expect(items[1]["success"]?["objectId"] == items[0]["success"]?["objectId"])
            #expect(items[2]["error"]?["code"] == 119)
            // Other spellings of the class never reach the generic object routes.
            for path in ["/parse/classes/%5FInstallation", "/parse/classes/_installation", "/parse/classes/_Installation/"] {
                let other = try await call(client, .get, path)
                #expect(other.status == 400 && other.json["results"] == nil, "\(path): \(other.json)")
            }
            let transaction = try await call(client, .post, "/parse/batch", body: #"{"transaction":true,"requests":[\#(item)]}"#)
            #expect(transaction.json["code"] == 107)
            #expect(try await call(client, .get, "/parse/installations", master: true).json["results"]?.arrayValue?.count == 1)
        }
    }
}
