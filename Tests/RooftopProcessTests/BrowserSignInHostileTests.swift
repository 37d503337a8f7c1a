import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// The browser sign-in, over real HTTP against the stand-in provider: the flow
/// for an OpenID Connect provider, GitHub and Facebook, linking, and every hostile case — a
/// replayed, expired or injected authorization code, a replayed or expired app code, a `state`
/// that matches no flow, a redirect off the allow-list, a missing or wrong PKCE verifier (the
/// server's at the provider, the app's at `/auth/token`), an identity linked elsewhere. Nothing
/// is created on a failure.
@Suite(.serialized) struct BrowserSignInHostileTests: LiveServerTest {
    static let now: Int64 = 1_700_000_000

    static var accounts: AccountsConfiguration {
        var accounts = AccountsConfiguration()
        accounts.authRedirectURIs = ["http://127.0.0.1/callback", "com.example.app:/callback"]
        return accounts
    }

    /// A server on a test clock with every provider pointed at a fresh stand-in.
    func withFlow(
        limits: [RateLimiter.Rule] = [], _ body: @Sendable (BrowserSignInSteps, StandInIdentityProvider, TestClock) async throws -> Void
    ) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(Self.now)
        let clock = TestClock()
        try await withServer(configure: { _, http in http.rateLimits = limits }, accounts: Self.accounts, clock: clock, auth: idp.settings()) {
            client in
            try await body(BrowserSignInSteps(client: client), idp, clock)
        }
    }

    func users(_ steps: BrowserSignInSteps) async throws -> Int {
        try await call(steps.client, .get, "/parse/users?count=1&limit=0", master: true).json["count"]?.intValue ?? -1
    }

    @Test func pkceChallengeIsRFC7636() {
        // RFC 7636, appendix B.
        #expect(SessionTokens().pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(SessionTokens().newSecret().count == 43)
    }

    @Test(arguments: ["oidc", "google", "github", "facebook"])
    func signsUpThenLogsIn(_ provider: String) async throws {
        try await withFlow { steps, _, _ in
            let subject = provider == "github" ? "4242" : "alice"
            let first = try await steps.run(provider, subject: subject)
            #expect(first["state"] == "app-state")
            let code = try #require(first["code"], "\(first)")
            let (status, user) = try await steps.redeem(code, verifier: steps.verifier)
            #expect(status == 200, "\(user)")
            let token = try #require(user["sessionToken"]?.stringValue)
            let id = try #require(user["objectId"]?.stringValue)
            #expect(user["authData"]?[provider]?["id"]?.stringValue == subject)
            let me = try await call(steps.client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token])
            #expect(me.json["objectId"]?.stringValue == id)
            let stored = try await call(steps.client, .get, "/parse/users/\(id)", master: true).json["authData"]?[provider]
            for secret in ["token", "id_token", "access_token", "code"] { #expect(stored?[secret] == nil) }
            // Again: the same user, no second one.
            let again = try await steps.run(provider, subject: subject)
            let (_, second) = try await steps.redeem(again["code"], verifier: steps.verifier)
            #expect(second["objectId"]?.stringValue == id)
            #expect(try await users(steps) == 1)
        }
    }

    @Test func answersAreNotStoredAndCarryNoToken() async throws {
        try await withFlow { steps, _, _ in
            let start = try await steps.get(steps.startPath("oidc"))
            #expect(start.status == 302 && start.cacheControl == "no-store")
            let authorization = try #require(start.location)
            let query = BrowserSignInSteps.query(authorization)
            #expect(query["code_challenge_method"] == "S256" && query["nonce"]?.count == 43 && query["state"]?.count == 43)
            #expect(query["code_challenge"] != steps.challenge, "the server's PKCE pair is its own")
            let back = try await steps.callback(try await BrowserSignInSteps.signIn(at: authorization, subject: "carol"))
            #expect(back.status == 302 && back.cacheControl == "no-store")
            let location = try #require(back.location)
            #expect(!location.contains("r:") && !location.contains("eyJ"), "no session or ID token travels to the app")
        }
    }

    @Test func replayedAndExpiredCodes() async throws {
        try await withFlow { steps, idp, clock in
            // The provider's code: a replay of the whole callback finds no flow (hosted page) ...
            let authorization = try await steps.start("oidc")
            let callback = try await BrowserSignInSteps.signIn(at: authorization, subject: "dave")
            let first = try await steps.callback(callback)
            let firstLocation = try #require(first.location)
            let appCode = try #require(BrowserSignInSteps.query(firstLocation)["code"])
            let replay = try await steps.callback(callback)
            #expect(replay.status == 400 && replay.body.contains("Sign-in failed"))
            // ... and under a fresh state, the provider refuses the used code.
            let fresh = BrowserSignInSteps.query(try await steps.start("oidc"))
            var reused = BrowserSignInSteps.query(callback)
            reused["state"] = fresh["state"]
            let refused = try await steps.callback(
                "/parse/auth/oidc/callback?" + BrowserSignInSteps.encode(reused.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            #expect(BrowserSignInSteps.query(try #require(refused.location))["error"] == "101")

            // The app's code works once.
            #expect(try await steps.redeem(appCode, verifier: steps.verifier).0 == 200)
            let again = try await steps.redeem(appCode, verifier: steps.verifier)
            #expect(again.0 == 404 && again.1["code"] == 101)

            // An app code older than a minute is refused.
            let late = try #require(try await steps.run("oidc", subject: "dave")["code"])
            clock.advance(by: .seconds(61))
            #expect(try await steps.redeem(late, verifier: steps.verifier).1["code"] == 101)

            // A provider code older than a minute (on the provider's clock) is refused.
            try await idp.setClock(Self.now + 61)
            let slow = try await BrowserSignInSteps.signIn(at: try await steps.start("oidc"), subject: "erin")
            try await idp.advance(seconds: 61)
            let expired = try await steps.callback(slow)
            #expect(BrowserSignInSteps.query(try #require(expired.location))["error"] == "101")
            #expect(try await users(steps) == 1)
        }
    }

    @Test(arguments: [("en", "Sign-in failed"), ("ja", "サインインできませんでした")])
    func stateThatMatchesNoFlow(language: String, title: String) async throws {
        try await withFlow { steps, _, _ in
            let authorization = try await steps.start("oidc")
            let callback = try await BrowserSignInSteps.signIn(at: authorization, subject: "frank")
            var forged = BrowserSignInSteps.query(callback)
            forged["state"] = "not-the-state"
            let page = try await steps.callback(
                "/parse/auth/oidc/callback?" + BrowserSignInSteps.encode(forged.map { ($0.key, $0.value) }), language: language)
            #expect(page.status == 400 && page.location == nil && page.cacheControl == "no-store")
            #expect(page.body.contains(title) && page.body.contains("101"))
            // A flow started for one provider can't finish at another's callback.
            let elsewhere = try await steps.callback(callback.replacingOccurrences(of: "/auth/oidc/", with: "/auth/google/"))
            #expect(elsewhere.status == 400)
            // No state at all.
            #expect(try await steps.get("/parse/auth/oidc/callback?code=x").status == 400)
            #expect(try await users(steps) == 0)
        }
    }

    @Test func redirectsOffTheAllowList() async throws {
        try await withFlow { steps, _, _ in
            for redirect in [
                "https://evil.example/callback", "http://127.0.0.1:4000/other", "http://localhost:4000/callback",
                "http://127.0.0.1.evil.example/callback", "http://user@127.0.0.1:4000/callback", "http://127.0.0.1:4000/callback#x",
                "com.example.app:/callback/more", "com.evil.app:/callback", "",
            ] {
                let page = try await steps.get(steps.startPath("oidc", redirect: redirect))
                #expect(page.status == 400 && page.location == nil, "\(redirect)")
            }
            // The allowed ones: any loopback port, and the custom scheme exactly.
            for redirect in ["http://127.0.0.1:61000/callback", "com.example.app:/callback"] {
                #expect(try await steps.get(steps.startPath("oidc", redirect: redirect)).status == 302, "\(redirect)")
            }
            // A provider that isn't configured: 252 on the hosted page.
            let unknown = try await steps.get(steps.startPath("nope"))
            #expect(unknown.status == 400 && unknown.body.contains("252"))
        }
    }

    @Test func pkceOfTheAppAndOfTheServer() async throws {
        try await withFlow { steps, _, _ in
            // No challenge, or not an S256 one: refused at start.
            #expect(try await steps.get(steps.startPath("oidc", challenge: "")).status == 400)
            #expect(try await steps.get(steps.startPath("oidc", challenge: "plain")).status == 400)
            // A wrong verifier uses the code up; a missing one is 107.
            let code = try #require(try await steps.run("oidc", subject: "gina")["code"])
            #expect(try await steps.redeem(code, verifier: nil).1["code"] == 107)
            let wrong = try await steps.redeem(code, verifier: SessionTokens().newSecret())
            #expect(wrong.0 == 404 && wrong.1["code"] == 101)
            #expect(try await steps.redeem(code, verifier: steps.verifier).1["code"] == 101)
            #expect(try await steps.redeem(nil, verifier: steps.verifier).1["code"] == 101)

            // Code injection: a code issued in flow A, delivered with flow B's state, is exchanged
            // with B's verifier; the provider's PKCE check refuses it.
            let flowA = try await steps.start("oidc")
            let flowB = BrowserSignInSteps.query(try await steps.start("oidc"))
            var injected = BrowserSignInSteps.query(try await BrowserSignInSteps.signIn(at: flowA, subject: "mallory"))
            injected["state"] = flowB["state"]
            let refused = try await steps.callback(
                "/parse/auth/oidc/callback?" + BrowserSignInSteps.encode(injected.map { ($0.key, $0.value) }))
            #expect(BrowserSignInSteps.query(try #require(refused.location))["error"] == "101")
            // The failed exchange created nobody: users exist only once an app redeems its code.
            #expect(try await users(steps) == 0)
        }
    }

    @Test func cancelledAtTheProvider() async throws {
        try await withFlow { steps, _, _ in
            let callback = try await BrowserSignInSteps.signIn(at: try await steps.start("github"), subject: "1", allow: false)
            let back = try await steps.callback(callback)
            let query = BrowserSignInSteps.query(try #require(back.location))
            #expect(query["error"] == "101" && query["code"] == nil && query["state"] == "app-state")
            #expect(try await users(steps) == 0)
        }
    }

    @Test func linkingAndAnIdentityLinkedElsewhere() async throws {
        try await withFlow { steps, _, _ in
            let owner = try #require(try await steps.run("oidc", subject: "henry")["code"])
            let ownerId = try #require(try await steps.redeem(owner, verifier: steps.verifier).1["objectId"]?.stringValue)
            let ana = try await call(steps.client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let anaToken = try #require(ana.json["sessionToken"]?.stringValue)
            // Henry's identity is taken: 208, and Ana is unchanged.
            let taken = try await steps.run("oidc", subject: "henry", link: anaToken)
            #expect(taken["error"] == "208" && taken["code"] == nil)
            #expect(try await call(steps.client, .get, "/parse/users/\(anaId)", master: true).json["authData"] == nil)
            // A fresh identity links to Ana, whose session the app then gets.
            let linked = try #require(try await steps.run("oidc", subject: "ivy", link: anaToken)["code"])
            let (status, user) = try await steps.redeem(linked, verifier: steps.verifier)
            #expect(status == 200 && user["objectId"]?.stringValue == anaId && user["objectId"]?.stringValue != ownerId)
            #expect(user["authData"]?["oidc"]?["id"] == "ivy")
            // A bad session gets no link code.
            #expect(try await steps.askLinkCode("oidc", session: "r:nonsense").1["code"] == 209)
            #expect(try await users(steps) == 2)
        }
    }

    /// The link's start URL carries a single-use, one-minute code bound to the app's
    /// challenge, never the session: a session token in it is refused, and a replayed, expired,
    /// unknown, other provider's or other flow's code starts nothing.
    @Test func linkCodesAndNoSessionInTheStartURL() async throws {
        try await withFlow { steps, _, clock in
            let ana = try await call(steps.client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let anaToken = try #require(ana.json["sessionToken"]?.stringValue)
            let bob = try await call(steps.client, .post, "/parse/users", body: #"{"username":"bob","password":"correct horse"}"#)
            let bobToken = try #require(bob.json["sessionToken"]?.stringValue)

            // The session token in the start URL (the old way): the hosted error page, no redirect.
            let inURL = try await steps.get(steps.startPath("oidc", sessionInURL: anaToken))
            #expect(inURL.status == 400 && inURL.location == nil && inURL.body.contains("209"))
            let both = try await steps.get(
                steps.startPath("oidc", linkCode: try await steps.linkCode("oidc", session: anaToken), sessionInURL: anaToken))
            #expect(both.status == 400 && both.location == nil)

            // Asking for a code: a session is required; the challenge must be S256's shape; the provider configured.
            #expect(try await steps.askLinkCode("oidc", session: nil).0 != 200)
            #expect(try await steps.askLinkCode("oidc", session: anaToken, challenge: "plain").1["code"] == 107)
            #expect(try await steps.askLinkCode("nope", session: anaToken).1["code"] == 252)
            let (_, answer) = try await steps.askLinkCode("oidc", session: anaToken)
            #expect(answer["expiresIn"] == 60 && answer["linkCode"]?.stringValue?.count == 43)

            // A code works once.
            let code = try await steps.linkCode("oidc", session: anaToken)
            #expect(try await steps.get(steps.startPath("oidc", linkCode: code)).status == 302)
            let replayed = try await steps.get(steps.startPath("oidc", linkCode: code))
            #expect(replayed.status == 400 && replayed.location == nil && replayed.body.contains("209"))
            // For a minute.
            let late = try await steps.linkCode("oidc", session: anaToken)
            clock.advance(by: .seconds(61))
            #expect(try await steps.get(steps.startPath("oidc", linkCode: late)).status == 400)
            // For its provider and its app's challenge only: Bob (or whoever saw the URL), with
            // his own challenge, can't use Ana's code to link his identity to her account; and
            // the attempt uses it up.
            let stolen = try await steps.linkCode("oidc", session: anaToken)
            let other = BrowserSignInSteps(client: steps.client)
            #expect(try await other.get(other.startPath("oidc", linkCode: stolen)).status == 400)
            #expect(try await steps.get(steps.startPath("oidc", linkCode: stolen)).status == 400)
            let forGoogle = try await steps.linkCode("google", session: anaToken)
            #expect(try await steps.get(steps.startPath("oidc", linkCode: forGoogle)).status == 400)
            for junk in ["", "r:" + anaToken, String(repeating: "a", count: 43), "\u{0}", String(repeating: "x", count: 5000)] {
                #expect(try await steps.get(steps.startPath("oidc", linkCode: junk)).status == 400, "\(junk.prefix(20))")
            }

            // Bob's own code links Bob, not Ana.
            let bobs = try #require(try await steps.run("oidc", subject: "bob-id", link: bobToken)["code"])
            let (status, user) = try await steps.redeem(bobs, verifier: steps.verifier)
            #expect(status == 200 && user["objectId"]?.stringValue != anaId && user["authData"]?["oidc"]?["id"] == "bob-id")
            #expect(try await call(steps.client, .get, "/parse/users/\(anaId)", master: true).json["authData"] == nil)
            #expect(try await users(steps) == 2)
        }
    }

    /// The three routes count as `/login`: a rule on sign-ins covers the browser too.
    @Test func countedAsLogin() async throws {
        let rule = RateLimiter.Rule(path: "/login", methods: ["GET", "POST"], count: 2, window: 60_000)
        try await withFlow(limits: [rule]) { steps, _, _ in
            #expect(try await steps.get(steps.startPath("oidc")).status == 302)
            #expect(try await steps.redeem("x", verifier: steps.verifier).0 == 404)
            // A person in a browser: the hosted "too many attempts" page, not JSON.
            let limited = try await steps.get(steps.startPath("oidc"))
            #expect(limited.status == 429 && limited.body.contains("Too many attempts"), "\(limited.body)")
        }
    }
}
