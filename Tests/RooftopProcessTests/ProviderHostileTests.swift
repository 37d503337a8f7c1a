import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopIdentity
import RooftopServices
import RooftopTesting
import Testing

/// Every kind of hostile provider token (forged, expired, for another audience, …), against the
/// stand-in identity provider: each answers 101 (or 208) and nothing is created or changed.
@Suite struct ProviderHostileTests: LiveServerTest {
    let now = ProviderSignInTests.now

    func users(_ client: any TestClientProtocol) async throws -> Int {
        try await call(client, .get, "/parse/users?count=1&limit=0", master: true).json["count"]?.intValue ?? -1
    }

    func signIn(_ client: any TestClientProtocol, _ provider: String, _ token: String, id: String = "7001", nonce: String? = nil) async throws
        -> Reply
    {
        let nonceJSON = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return try await call(client, .post, "/parse/users", body: #"{"authData":{"\#(provider)":{"id":"\#(id)","token":"\#(token)"\#(nonceJSON)}}}"#)
    }

    @Test func hostileIDTokensAreRefused() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        let attacks: [(String, [String: JSON])] = [
            ("wrong audience", ["aud": "someone-else"]),
            ("wrong issuer", ["iss": "https://evil.example"]),
            (
                "unknown key, with jku and x5u pointing elsewhere",
                ["attack": "unknown_key", "headers": ["jku": "http://127.0.0.1:9/keys", "x5u": "http://127.0.0.1:9/cert"]]
            ),
            ("alg none", ["attack": "none"]),
            ("HMAC keyed with the public key", ["attack": "hmac_public_key"]),
            ("an algorithm providers don't use", ["attack": "rs512"]),
            ("another key under the provider's key id", ["attack": "foreign_key_same_kid"]),
            ("issued in the future", ["iat_offset": 3600]),
            ("not valid for an hour (nbf)", ["nbf_offset": 3600]),
            ("not valid until after it expires (nbf after exp)", ["nbf_offset": 900, "expires_in": 600]),
            // Both audiences ours (jwt-kit refuses any other), but no party named, or another one.
            ("several audiences, no azp", ["aud": ["client-1", "client-2"]]),
            ("several audiences, azp another party", ["aud": ["client-1", "client-2"], "azp": "someone-else"]),
            ("another subject", ["sub": "someone-else"]),
        ]
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            for tenant in ["apple", "google", "oidc"] {
                for (name, spec) in attacks {
                    let token: String
                    let reply: Reply
                    do {
                        token = try await idp.idToken(tenant, sub: spec["sub"]?.stringValue ?? "7001", now: now, spec)
                    } catch {
                        Issue.record("mint \(tenant) \(name): \(error)")
                        continue
                    }
                    do {
                        reply = try await signIn(client, tenant, token)
                    } catch {
                        Issue.record("sign in \(tenant) \(name): \(error)")
                        continue
                    }
                    #expect(reply.status == 404 && reply.json["code"] == 101, "\(tenant): \(name): \(reply.json)")
                    #expect(reply.json["error"]?.stringValue?.contains(token) == false)
                }
                // The honest token still works once every attack failed: nothing was cached wrongly.
                #expect(try await signIn(client, tenant, try await idp.idToken(tenant, sub: "7001", now: now)).status == 201)
                // Honest uses of the same claims: `nbf` already passed, several audiences with us as `azp`.
                let honest: [String: JSON] = ["nbf_offset": -30, "aud": ["client-1", "client-2"], "azp": "client-2"]
                let again = try await signIn(client, tenant, try await idp.idToken(tenant, sub: "7001", now: now, honest))
                #expect(again.status == 200, "\(tenant): \(again.json)")
            }
            #expect(try await users(client) == 3)
            let failed = try await call(
                client, .get, "/parse/classes/_Audit?count=1&limit=0&where=\(encoded(#"{"type":"login.failed"}"#))", master: true)
            #expect(failed.json["count"]?.intValue == attacks.count * 3)
        }
    }

    @Test func expiredTokensAreRefusedOnTheServersClock() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        let clock = TestClock()
        try await withServer(clock: clock, auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let token = try await idp.idToken("google", sub: "7001", now: now, ["expires_in": 300])
            clock.advance(by: .seconds(300 + 61))
            #expect(try await signIn(client, "google", token).json["code"] == 101)
            #expect(try await users(client) == 0)
        }
    }

    @Test func nonceMustMatch() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let withNonce = try await idp.idToken("apple", sub: "7001", now: now, ["nonce": "n-1"])
            #expect(try await signIn(client, "apple", withNonce).json["code"] == 101)  // carried but not sent
            #expect(try await signIn(client, "apple", withNonce, nonce: "n-2").json["code"] == 101)  // wrong
            let without = try await idp.idToken("apple", sub: "7001", now: now)
            #expect(try await signIn(client, "apple", without, nonce: "n-1").json["code"] == 101)  // sent but missing
            #expect(try await users(client) == 0)
            #expect(try await signIn(client, "apple", withNonce, nonce: "n-1").status == 201)
            // Apple's form: the token carries the SHA-256 of the nonce the app sent.
            let hashed = try await idp.idToken("apple", sub: "7002", now: now, ["nonce": .string(Self.sha256Hex("raw-nonce"))])
            #expect(try await signIn(client, "apple", hashed, id: "7002", nonce: "raw-nonce").status == 201)
        }
    }

    /// Keys are fetched from the configured address only; an unknown key id refetches them (key
    /// rotation), at most once a minute on the server's clock.
    @Test func keyRotationAndRefetchLimit() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        let clock = TestClock()
        try await withServer(clock: clock, auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            #expect(try await signIn(client, "google", try await idp.idToken("google", sub: "7001", now: now)).status == 201)
            #expect(try await idp.jwksFetches("google") == 1)
            func rogue() async throws -> Reply {
                try await signIn(client, "google", try await idp.idToken("google", sub: "7001", now: now, ["attack": "unknown_key"]))
            }
            // Within a minute of the last fetch, unknown key ids fetch nothing.
            #expect(try await rogue().json["code"] == 101)
            #expect(try await idp.jwksFetches("google") == 1)
            // Later, the first unknown key id refetches once; the next ones wait a minute again.
            clock.advance(by: .seconds(61))
            for _ in 0..<5 { #expect(try await rogue().json["code"] == 101) }
            #expect(try await idp.jwksFetches("google") == 2)
            try await idp.rotate("google")
            clock.advance(by: .seconds(61))
            let rotated = try await idp.idToken("google", sub: "7001", now: now + 122)
            #expect(try await signIn(client, "google", rotated).status == 200)
            #expect(try await idp.jwksFetches("google") == 3)
            // A header pointing at another tenant's keys is never followed.
            let apple = try await idp.idToken("apple", sub: "7001", now: now + 122, ["headers": ["jku": .string("\(idp.base)/apple/keys")]])
            #expect(try await signIn(client, "google", apple).json["code"] == 101)
            #expect(try await idp.jwksFetches("apple") == 0)
        }
    }

    /// A key the provider removed stops being trusted when its `Cache-Control: max-age` runs out
    /// (within a minute and an hour), not an hour later: here 120 s on the server's clock. A
    /// `max-age` under a minute is held to one (no refetch storm); none means an hour.
    @Test func removedKeysLeaveWithTheProvidersMaxAge() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        let clock = TestClock()
        try await withServer(clock: clock, auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            try await idp.jwksCacheControl("google", "public, max-age=120, must-revalidate")
            #expect(try await signIn(client, "google", try await idp.idToken("google", sub: "7001", now: now)).status == 201)
            try await idp.rotate("google")
            func oldKey(_ at: Int64) async throws -> Reply {
                try await signIn(client, "google", try await idp.idToken("google", sub: "7001", now: at, ["key": "previous"]))
            }
            // Within max-age the cached keys still hold the removed one.
            clock.advance(by: .seconds(100))
            #expect(try await oldKey(now + 100).status == 200)
            #expect(try await idp.jwksFetches("google") == 1)
            // Past it, the keys are fetched again and the removed key is refused.
            clock.advance(by: .seconds(21))
            #expect(try await oldKey(now + 121).json["code"] == 101)
            #expect(try await idp.jwksFetches("google") == 2)
            #expect(try await signIn(client, "google", try await idp.idToken("google", sub: "7001", now: now + 121)).status == 200)

            // max-age=0 (or no-store) is held to a minute: keys are not fetched for every token.
            try await idp.jwksCacheControl("oidc", "no-store")
            #expect(try await signIn(client, "oidc", try await idp.idToken("oidc", sub: "7002", now: now + 121), id: "7002").status == 201)
            let fetched = try await idp.jwksFetches("oidc")
            clock.advance(by: .seconds(30))
            #expect(try await signIn(client, "oidc", try await idp.idToken("oidc", sub: "7002", now: now + 151), id: "7002").status == 200)
            #expect(try await idp.jwksFetches("oidc") == fetched)
            clock.advance(by: .seconds(31))
            #expect(try await signIn(client, "oidc", try await idp.idToken("oidc", sub: "7002", now: now + 182), id: "7002").status == 200)
            #expect(try await idp.jwksFetches("oidc") == fetched + 1)
        }
    }

    @Test func hostileAccessTokensAreRefused() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let cases: [String] = [
                #"{"facebook":{"id":"8001","access_token":"\#(try await idp.facebookToken(userId: "8001", appId: "other-app"))"}}"#,
                #"{"facebook":{"id":"8001","access_token":"\#(try await idp.facebookToken(userId: "8001", valid: false))"}}"#,
                #"{"facebook":{"id":"8001","access_token":"\#(try await idp.facebookToken(userId: "8002"))"}}"#,
                #"{"facebook":{"id":"8001","access_token":"made-up"}}"#, #"{"facebook":{"id":"8001"}}"#,
                #"{"github":{"id":"8001","access_token":"made-up"}}"#,
                #"{"github":{"id":"8001","access_token":"\#(try await idp.githubToken(id: 8002))"}}"#,
            ]
            for body in cases {
                let reply = try await call(client, .post, "/parse/users", body: #"{"authData":\#(body)}"#)
                #expect(reply.json["code"] == 101, "\(body): \(reply.json)")
            }
            for body in [#"{"github":{"id":{"$ne":null},"access_token":"x"}}"#, #"{"apple":{"token":"x"}}"#, #"{"google":"x"}"#] {
                #expect(try await call(client, .post, "/parse/users", body: #"{"authData":\#(body)}"#).json["code"] == 107, "\(body)")
            }
            #expect(try await users(client) == 0)
        }
    }

    /// A GitHub token the user gave another OAuth app answers GitHub's `GET /user` like ours
    /// does; it must not sign anyone in here. Only GitHub's token check with this server's client
    /// id and secret tells them apart, and without a secret native tokens are refused outright.
    @Test func githubTokenIssuedToAnotherAppSignsNobodyIn() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let owner = try await call(
                client, .post, "/parse/users",
                body: #"{"authData":{"github":{"id":"8101","access_token":"\#(try await idp.githubToken(id: 8101))"}}}"#)
            #expect(owner.status == 201, "\(owner.json)")
            let sessions = try await call(client, .get, "/parse/sessions?count=1&limit=0", master: true).json["count"]
            let foreign = try await idp.githubToken(id: 8101, app: "other-gh-app")
            let reply = try await call(client, .post, "/parse/users", body: #"{"authData":{"github":{"id":"8101","access_token":"\#(foreign)"}}}"#)
            #expect(reply.status == 404 && reply.json["code"] == 101, "\(reply.json)")
            #expect(reply.json["sessionToken"] == nil)
            #expect(try await call(client, .get, "/parse/sessions?count=1&limit=0", master: true).json["count"] == sessions)
            // Linking it to another account is refused the same way.
            let ana = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let link = try await call(
                client, .put, "/parse/users/\(try #require(ana.json["objectId"]?.stringValue))",
                body: #"{"authData":{"github":{"id":"8102","access_token":"\#(try await idp.githubToken(id: 8102, app: "other-gh-app"))"}}}"#,
                headers: ["X-Parse-Session-Token": try #require(ana.json["sessionToken"]?.stringValue)])
            #expect(link.json["code"] == 101, "\(link.json)")
        }
        // No client secret: nothing to check a token with, so none is trusted, ours included.
        var settings = idp.settings()
        for index in settings.indices where settings[index].kind == .github { settings[index].clientSecret = nil }
        try await withServer(clock: TestClock(), auth: settings) { (client: any TestClientProtocol) async throws in
            let reply = try await call(
                client, .post, "/parse/users",
                body: #"{"authData":{"github":{"id":"8103","access_token":"\#(try await idp.githubToken(id: 8103))"}}}"#)
            #expect(reply.json["code"] == 101 && reply.json["error"]?.stringValue?.contains("clientSecret") == true, "\(reply.json)")
            #expect(try await users(client) == 0)
        }
    }

    /// A link that fails changes nothing: the user keeps its fields and providers.
    @Test func failedLinkChangesNothing() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let ana = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let id = try #require(ana.json["objectId"]?.stringValue)
            let token = try #require(ana.json["sessionToken"]?.stringValue)
            let before = try await call(client, .get, "/parse/users/\(id)", master: true).json
            let rogue = try await idp.idToken("oidc", sub: "9001", now: now, ["aud": "someone-else"])
            let reply = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"nickname":"x","authData":{"oidc":{"id":"9001","token":"\#(rogue)"}}}"#,
                headers: ["X-Parse-Session-Token": token])
            #expect(reply.json["code"] == 101)
            #expect(try await call(client, .get, "/parse/users/\(id)", master: true).json == before)
        }
    }

    /// SHA-256 of `raw-nonce` in hex (`hashlib.sha256(b"raw-nonce").hexdigest()`).
    static func sha256Hex(_ text: String) -> String {
        text == "raw-nonce" ? "2c5d107938053a2275f022c153c9a71f65ee07754b8bca543ee97a0c3cc66990" : ""
    }
}
