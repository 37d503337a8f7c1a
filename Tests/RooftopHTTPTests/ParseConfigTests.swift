import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// `GET`/`PUT /config`: Parse Config's values, master-only keys hidden from clients, changes
/// by key, and bad input refused with nothing stored changed.
@Suite struct ParseConfigTests: LiveServerTest {
    @Test func valuesAreReadByClientsAndChangedByTheMasterKey() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            // Nothing stored yet: empty params, as Parse.
            #expect(try await call(client, .get, "/parse/config").json == ["params": [:]])

            let put = #"{"params":{"welcome":"Hi","maxItems":10,"flags":{"beta":true},"secret":"s3"},"masterKeyOnly":{"secret":true}}"#
            #expect(try await call(client, .put, "/parse/config", body: put).status == 403)
            let changed = try await call(client, .put, "/parse/config", body: put, master: true)
            #expect(changed.status == 200)
            #expect(changed.json == ["result": true])

            let asClient = try await call(client, .get, "/parse/config")
            #expect(asClient.json == ["params": ["welcome": "Hi", "maxItems": 10, "flags": ["beta": true]]])
            let asMaster = try await call(client, .get, "/parse/config", master: true)
            #expect(asMaster.json["params"]?["secret"] == "s3")
            #expect(asMaster.json["masterKeyOnly"] == ["secret": true])

            // A change touches only the keys it names; Delete removes a key.
            let second = #"{"params":{"welcome":"Hello","maxItems":{"__op":"Delete"}},"masterKeyOnly":{"secret":false}}"#
            #expect(try await call(client, .put, "/parse/config", body: second, master: true).status == 200)
            let after = try await call(client, .get, "/parse/config")
            #expect(after.json == ["params": ["welcome": "Hello", "flags": ["beta": true], "secret": "s3"]])

            // The class is the master key's alone through the object routes too.
            let direct = try await call(client, .get, "/parse/classes/_GlobalConfig")
            #expect(direct.json["code"] == 119, "\(direct.json)")
        }
    }

    @Test func badChangesAreRefusedAndChangeNothing() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .put, "/parse/config", body: #"{"params":{"a":1}}"#, master: true).status == 200)
            let refused: [(String, Int)] = [
                (#"{"params":{"a.b":1}}"#, 105),
                (#"{"params":{"$where":1}}"#, 105),
                (#"{"params":{"a\u0000b":1}}"#, 105),
                (#"{"params":{"":1}}"#, 105),
                (#"{"params":[1]}"#, 107),
                (#"{"params":"x"}"#, 107),
                (#"{"masterKeyOnly":{"a":"yes"}}"#, 107),
                (#"{"params":{"a":2},"other":{}}"#, 107),
                (#"{"params":{"a":{"__op":"Increment","amount":"x"}}}"#, 107),
            ]
            for (body, code) in refused {
                let reply = try await call(client, .put, "/parse/config", body: body, master: true)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json["code"] == .number(Double(code)), "\(body): \(reply.json)")
            }
            #expect(try await call(client, .get, "/parse/config").json == ["params": ["a": 1]])
            // A session is not the master key.
            let user = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"a long password 1"}"#)
            let token = try #require(user.json["sessionToken"]?.stringValue)
            let asUser = try await call(client, .put, "/parse/config", body: #"{"params":{"a":2}}"#, headers: ["X-Parse-Session-Token": token])
            #expect(asUser.status == 403)
            #expect(try await call(client, .get, "/parse/config").json == ["params": ["a": 1]])
        }
    }
}
