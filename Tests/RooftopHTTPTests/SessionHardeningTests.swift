import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// `GET /classes/_Session` for a signed-in user (their own sessions, as Parse answers) and the
/// cap on sessions per user.
@Suite struct SessionHardeningTests: LiveServerTest {
    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> (id: String, token: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"pass phrase 1"}"#)
        return (try #require(reply.json["objectId"]?.stringValue), try #require(reply.json["sessionToken"]?.stringValue))
    }

    func logIn(_ client: any TestClientProtocol, _ name: String, installation: String? = nil) async throws -> String {
        var headers: [String: String] = [:]
        if let installation { headers["X-Parse-Installation-Id"] = installation }
        let reply = try await call(client, .post, "/parse/login", body: #"{"username":"\#(name)","password":"pass phrase 1"}"#, headers: headers)
        return try #require(reply.json["sessionToken"]?.stringValue)
    }

    @Test func usersListTheirOwnSessions() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let bob = try await signUp(client, "bob")
            _ = try await logIn(client, "ana", installation: "device-2")
            let session = ["X-Parse-Session-Token": ana.token]
            let list = try await call(client, .get, "/parse/classes/_Session", headers: session)
            #expect(list.status == 200, "\(list.json)")
            let results = try #require(list.json["results"]?.arrayValue)
            #expect(results.count == 2)
            for item in results {
                #expect(item["user"]?["objectId"]?.stringValue == ana.id)
                #expect(item["user"]?["__type"] == "Pointer" && item["user"]?["className"] == "_User")
                #expect(item["expiresAt"]?["__type"] == "Date")
                #expect(item["createdWith"]?["action"] != nil)
                #expect(item["objectId"]?.stringValue != nil && item["createdAt"] != nil)
                // Tokens are stored as digests only: neither the token nor its digest is listed.
                #expect(item["sessionToken"] == nil && item["_session_token"] == nil)
            }
            #expect(results.contains { $0["installationId"] == "device-2" })

            // Someone else's sessions are out of reach, whatever the query says.
            let bobPointer = #"{"user":{"__type":"Pointer","className":"_User","objectId":"\#(bob.id)"}}"#
            let other = try await call(client, .get, "/parse/classes/_Session?where=" + encoded(bobPointer), headers: session)
            #expect(other.json["results"]?.arrayValue?.isEmpty == true, "\(other.json)")
            let bobSessions = try await call(client, .get, "/parse/classes/_Session", headers: ["X-Parse-Session-Token": bob.token])
            let bobSessionId = try #require(bobSessions.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/_Session/\(bobSessionId)", headers: session).json["code"] == 101)
            let ownId = try #require(results.first?["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/_Session/\(ownId)", headers: session).status == 200)
            // Querying on the token finds nothing; writes through /classes stay refused.
            let byToken = try await call(
                client, .get, "/parse/classes/_Session?where=" + encoded(#"{"sessionToken":"\#(ana.token)"}"#), headers: session)
            #expect(byToken.json["results"]?.arrayValue?.isEmpty == true)
            #expect(try await call(client, .put, "/parse/classes/_Session/\(ownId)", body: "{}", headers: session).json["code"] == 119)
            #expect(try await call(client, .post, "/parse/classes/_Session", body: "{}", headers: session).json["code"] == 119)
            // Without a session: refused, as before.
            #expect(try await call(client, .get, "/parse/classes/_Session").json["code"] == 119)
            // The master key still sees every session.
            #expect(try await call(client, .get, "/parse/classes/_Session", master: true).json["results"]?.arrayValue?.count == 3)
        }
    }

    /// Past `maxSessionsPerUser` a login ends the user's oldest session, at once (the cache
    /// forgets it), on every route that opens one.
    @Test func sessionsPerUserAreCapped() async throws {
        var accounts = AccountsConfiguration()
        accounts.maxSessionsPerUser = 3
        // Sessions a second apart, so "oldest" is never a tie.
        let clock = TestClock()
        try await withServer(accounts: accounts, clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            // Warm the cache for the first token: the cap must drop it there too.
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": ana.token]).status == 200)
            var tokens = [ana.token]
            for _ in 0..<3 {
                clock.advance(by: .seconds(1))
                tokens.append(try await logIn(client, "ana"))
            }
            clock.advance(by: .seconds(1))
            let created = try await call(client, .post, "/parse/sessions", body: "{}", headers: ["X-Parse-Session-Token": tokens[3]])
            tokens.append(try #require(created.json["sessionToken"]?.stringValue))
            var live: [Bool] = []
            for token in tokens {
                live.append(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token]).status == 200)
            }
            #expect(live == [false, false, true, true, true])
            let listed = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": tokens[4]])
            #expect(listed.json["results"]?.arrayValue?.count == 3)
            // Other users are untouched.
            let bob = try await signUp(client, "bob")
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": bob.token]).status == 200)
        }
    }
}
