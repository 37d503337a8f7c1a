import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopIdentity
import RooftopServices
import RooftopTesting
import Testing

/// Sign in with Apple in the browser, against the stand-in in Apple mode: the client secret the
/// server signs with the operator's `.p8` key (checked the way Apple checks it, so a wrong key,
/// key id or team fails), renewed before it expires; a pre-signed secret still works; and
/// Apple's `response_mode=form_post` return, accepted as a POST for Apple only.
@Suite(.serialized) struct AppleSignInTests: LiveServerTest {
    static let now = BrowserSignInHostileTests.now

    /// A server on a test clock with every provider pointed at a fresh stand-in (Apple mode);
    /// `apple` changes Apple's settings.
    func withApple(
        _ apple: (inout ProviderSettings, StandInIdentityProvider) throws -> Void = { _, _ in },
        _ body: @Sendable (BrowserSignInSteps, StandInIdentityProvider, TestClock) async throws -> Void
    ) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(Self.now)
        var settings = idp.settings()
        if let index = settings.firstIndex(where: { $0.kind == .apple }) { try apple(&settings[index], idp) }
        let clock = TestClock()
        try await withServer(accounts: BrowserSignInHostileTests.accounts, clock: clock, auth: settings) { client in
            try await body(BrowserSignInSteps(client: client), idp, clock)
        }
    }

    func users(_ steps: BrowserSignInSteps) async throws -> Int {
        try await call(steps.client, .get, "/parse/users?count=1&limit=0", master: true).json["count"]?.intValue ?? -1
    }

    /// One Apple flow as `subject` up to the server's answer to the form post.
    func returnFromApple(_ steps: BrowserSignInSteps, subject: String) async throws -> BrowserSignInSteps.Answer {
        let (action, fields) = try await BrowserSignInSteps.signInFormPost(at: try await steps.start("apple"), subject: subject)
        return try await steps.callbackPost(action, fields)
    }

    @Test func signsUpAndLogsInThroughTheFormPost() async throws {
        try await withApple { steps, idp, _ in
            let authorization = try await steps.start("apple")
            let asked = BrowserSignInSteps.query(authorization)
            #expect(asked["response_mode"] == "form_post" && asked["scope"] == "name email" && asked["nonce"]?.count == 43)
            let (action, fields) = try await BrowserSignInSteps.signInFormPost(at: authorization, subject: "sam")
            #expect(action.hasSuffix("/parse/auth/apple/callback") && fields["code"] != nil && fields["user"] != nil)
            // The same return as a GET (a link) is refused and leaves the flow alone ...
            let asLink = try await steps.callback(action + "?" + BrowserSignInSteps.encode(fields.map { ($0.key, $0.value) }))
            #expect(asLink.status == 400 && asLink.location == nil)
            // ... which the form post then finishes.
            let back = try await steps.callbackPost(action, fields)
            #expect(back.status == 302 && back.cacheControl == "no-store", "\(back.body)")
            let query = BrowserSignInSteps.query(try #require(back.location))
            #expect(query["state"] == "app-state")
            let (status, user) = try await steps.redeem(query["code"], verifier: steps.verifier)
            #expect(status == 200, "\(user)")
            let id = try #require(user["objectId"]?.stringValue)
            // The name from Apple's `user` (first sign-in only), the email from the signed token.
            #expect(user["authData"]?["apple"]?["id"] == "sam" && user["authData"]?["apple"]?["name"] == "Sam Appleseed")
            #expect(user["authData"]?["apple"]?["email"] == "sam@example.com")
            // A second sign-in (no `user` this time) finds the same user.
            let again = BrowserSignInSteps.query(try #require(try await returnFromApple(steps, subject: "sam").location))
            #expect(try await steps.redeem(again["code"], verifier: steps.verifier).1["objectId"]?.stringValue == id)
            #expect(try await users(steps) == 1)
            // One secret, signed once and reused, at the server's clock.
            #expect(try await idp.appleSecretsAccepted() == [Int(Self.now)])
        }
    }

    /// Apple refuses a secret signed with another key, naming another key id or team: the
    /// callback sends the app 101 and nobody is created.
    @Test(arguments: ["wrong key", "wrong key id", "wrong team"])
    func aClientSecretAppleRefuses(_ mistake: String) async throws {
        try await withApple({ apple, idp in
            apple.appleKey =
                switch mistake {
                case "wrong key": try idp.appleKey(wrong: true)
                case "wrong key id": try idp.appleKey(keyId: "KEYOTHER01")
                default: try idp.appleKey(teamId: "TEAMOTHER1")
                }
        }) { steps, idp, _ in
            let back = try await returnFromApple(steps, subject: "sam")
            let query = BrowserSignInSteps.query(try #require(back.location))
            #expect(query["error"] == "101" && query["code"] == nil, "\(query)")
            #expect(try await idp.appleSecretsAccepted().isEmpty)
            #expect(try await users(steps) == 0)
        }
    }

    /// The secret lives an hour and is signed again in its last ten minutes, on the server's
    /// clock (the stand-in's moves with it).
    @Test func theSecretIsRenewedBeforeItExpires() async throws {
        try await withApple { steps, idp, clock in
            #expect(try await returnFromApple(steps, subject: "sam").status == 302)
            clock.advance(by: .seconds(45 * 60))
            try await idp.advance(seconds: 45 * 60)
            #expect(try await returnFromApple(steps, subject: "sam").status == 302)
            #expect(try await idp.appleSecretsAccepted() == [Int(Self.now)], "kept while it has more than ten minutes")
            clock.advance(by: .seconds(6 * 60))
            try await idp.advance(seconds: 6 * 60)
            let back = try await returnFromApple(steps, subject: "sam")
            #expect(BrowserSignInSteps.query(try #require(back.location))["code"] != nil)
            #expect(try await idp.appleSecretsAccepted() == [Int(Self.now), Int(Self.now) + 51 * 60])
        }
    }

    /// An operator's pre-signed `clientSecret` still works while Apple accepts it.
    @Test(arguments: [("valid", true), ("expired", false), ("over six months", false)])
    func aPresignedSecret(_ kind: String, accepted: Bool) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(Self.now)
        let spec: [String: JSON] =
            switch kind {
            case "valid": [:]
            case "expired": ["iat_offset": .number(-7200), "expires_in": .number(-3600)]
            default: ["expires_in": .number(200 * 86400)]
            }
        let presigned = try await idp.token("/control/apple-secret", spec)
        var settings = idp.settings()
        for index in settings.indices where settings[index].kind == .apple {
            settings[index].appleKey = nil
            settings[index].clientSecret = presigned
        }
        try await withServer(accounts: BrowserSignInHostileTests.accounts, clock: TestClock(), auth: settings) { client in
            let steps = BrowserSignInSteps(client: client)
            let query = BrowserSignInSteps.query(try #require(try await returnFromApple(steps, subject: "pat").location))
            #expect((query["code"] != nil) == accepted && (query["error"] == "101") == !accepted, "\(query)")
        }
    }

    /// The form-post callback is Apple's only: another provider's flow can't return by POST
    /// (nothing is consumed), and the POST takes the same care as the GET: no or forged
    /// state, a replay, a cancelled sign-in, a `user` that is not a plain name.
    @Test func theFormPostIsApplesOnlyAndHostileInputFails() async throws {
        try await withApple { steps, _, _ in
            // An OpenID Connect flow's return posted as a form: refused; the GET still works.
            let callback = try await BrowserSignInSteps.signIn(at: try await steps.start("oidc"), subject: "olga")
            let posted = try await steps.callbackPost(try #require(URLComponents(string: callback)?.path), BrowserSignInSteps.query(callback))
            #expect(posted.status == 400 && posted.location == nil)
            #expect(BrowserSignInSteps.query(try #require(try await steps.callback(callback).location))["code"] != nil)

            let (action, fields) = try await BrowserSignInSteps.signInFormPost(at: try await steps.start("apple"), subject: "mia")
            // At an unknown provider's callback, by either method, the flow is left alone.
            #expect(try await steps.callbackPost("/parse/auth/nope/callback", fields).status == 400)
            let elsewhere = "/parse/auth/nope/callback?" + BrowserSignInSteps.encode(fields.map { ($0.key, $0.value) })
            #expect(try await steps.callback(elsewhere).status == 400)
            var forged = fields
            forged["state"] = "forged"
            for attempt in [forged, fields.filter { $0.key != "state" }, ["state": "\u{0}", "code": "x"]] {
                let page = try await steps.callbackPost(action, attempt)
                #expect(page.status == 400 && page.location == nil && page.body.contains("101"))
            }
            #expect(try await steps.callbackPost(action, fields).status == 302)
            let replay = try await steps.callbackPost(action, fields)
            #expect(replay.status == 400 && replay.location == nil)

            // Cancelled at Apple: the app gets 101.
            let (_, cancelled) = try await BrowserSignInSteps.signInFormPost(at: try await steps.start("apple"), subject: "x", allow: false)
            let back = try await steps.callbackPost(action, cancelled)
            #expect(BrowserSignInSteps.query(try #require(back.location))["error"] == "101")

            // A `user` that is not a plain name is ignored; the sign-in still works.
            for user in [
                #"{"name":{"firstName":{"$ne":null},"lastName":"\u0007"}}"#, String(repeating: "[", count: 5000), "not json",
                #"{"name":{"firstName":"\#(String(repeating: "a", count: 200))"}}"#,
            ] {
                var (_, next) = try await BrowserSignInSteps.signInFormPost(at: try await steps.start("apple"), subject: "nia")
                next["user"] = user
                let answer = try await steps.callbackPost(action, next)
                let location = try #require(answer.location)
                let code = try #require(BrowserSignInSteps.query(location)["code"])
                let (_, signedIn) = try await steps.redeem(code, verifier: steps.verifier)
                #expect(signedIn["authData"]?["apple"]?["id"] == "nia" && signedIn["authData"]?["apple"]?["name"] == nil, "\(user)")
            }
        }
    }
}
