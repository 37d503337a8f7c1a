import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// `POST /events/:name` (accepted, checked, not stored) and `GET /serverInfo` (master key).
@Suite struct EventAndServerInfoTests: LiveServerTest {
    @Test func eventsAreAnsweredWithAnEmptyObject() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let opened = try await call(
                client, .post, "/parse/events/AppOpened", body: #"{"at":{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"},"push_hash":"abc"}"#)
            #expect(opened.status == 200)
            #expect(opened.json == [:])
            let custom = try await call(
                client, .post, "/parse/events/search-2", body: #"{"dimensions":{"priceRange":"1000-1500","source":"craigslist"}}"#)
            #expect(custom.json == [:])
            #expect(try await call(client, .post, "/parse/events/AppOpened", body: "{}").json == [:])
            // The application id is still required.
            #expect(try await call(client, .post, "/parse/events/AppOpened", body: "{}", appId: "wrong").status == 403)
            // Nothing was stored anywhere.
            let schemas = try await call(client, .get, "/parse/schemas", master: true)
            #expect(schemas.json["results"]?.arrayValue?.count == 0)
        }
    }

    @Test func malformedEventsAreRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let cases: [(String, String, Int)] = [
                ("_private", "{}", 160),
                ("a%20b", "{}", 160),
                ("x%00y", "{}", 160),
                (String(repeating: "e", count: 65), "{}", 160),
                ("Search", #"{"dimensions":"all"}"#, 111),
                ("Search", #"{"dimensions":{"n":1}}"#, 111),
                ("Search", #"{"dimensions":{"n":{"$ne":null}}}"#, 111),
                ("Search", #"{"dimensions":{"n":"a\u0000b"}}"#, 142),
                ("Search", #"{"dimensions":{"n":"\#(String(repeating: "d", count: 257))"}}"#, 142),
                ("Search", #"{"dimensions":{\#((0..<33).map { "\"k\($0)\":\"v\"" }.joined(separator: ","))}}"#, 142),
                ("Search", #"{"at":"yesterday"}"#, 111),
                ("Search", #"{"at":{"__type":"Date","iso":{"$gt":""}}}"#, 111),
                ("AppOpened", #"{"push_hash":["x"]}"#, 111),
            ]
            for (name, body, code) in cases {
                let reply = try await call(client, .post, "/parse/events/\(name)", body: body)
                #expect(reply.status == 400)
                #expect(reply.json["code"]?.numberValue == Double(code), "\(name.prefix(20)) \(body.prefix(50)): \(reply.json)")
            }
            let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            #expect(try await call(client, .post, "/parse/events/AppOpened", body: #"{"dimensions":\#(deep)}"#).json["code"] == 107)
            #expect(try await call(client, .get, "/parse/events/AppOpened").json["code"] == 107)
        }
    }

    @Test func serverInfoNeedsTheMasterKeyAndTellsTheTruth() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let refused = try await call(client, .get, "/parse/serverInfo")
            #expect(refused.status == 403)
            let info = try await call(client, .get, "/parse/serverInfo", master: true)
            #expect(info.status == 200)
            #expect(info.json["parseServerVersion"] == .string(RooftopVersion.current))
            let features = try #require(info.json["features"]?.objectValue)
            #expect(Set(features.keys) == ["globalConfig", "hooks", "cloudCode", "logs", "push", "schemas"])
            #expect(info.json["features"]?["push"]?["immediatePush"] == false)
            #expect(info.json["features"]?["schemas"]?["addField"] == true)
            #expect(info.json["features"]?["schemas"]?["editClassLevelPermissions"] == true)
            #expect(info.json["features"]?["globalConfig"]?["read"] == true)
            #expect(info.json["features"]?["cloudCode"]?["jobs"] == true)
        }
    }
}
