import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// The second factor beside other sign-ins and mail: a provider's sign-in (by `authData` and
/// through the browser) follows `secondFactorOnProviderSignIn`, and enabling, removing and a
/// used recovery code are mailed to the user (received by a real SMTP server), in her language.
@Suite struct SecondFactorSignInTests: LiveServerTest {
    static let now: Int64 = 1_700_000_000
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    func code(_ clock: TestClock, _ offset: Int64 = 0) -> String {
        TOTP.code(secret: Self.secret, step: clock.now().millisecondsSince1970 / 1000 / 30 + offset)
    }

    /// Enrols the user of `token` (Parse's wire) with `secret`: the recovery codes.
    func enrol(_ client: any TestClientProtocol, id: String, token: String, _ clock: TestClock) async throws -> [String] {
        let body = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(Self.secret))","token":"\#(code(clock))"}}}"#
        let enrolled = try await call(client, .put, "/parse/users/\(id)", body: body, headers: session(token))
        try #require(enrolled.status == 200, "\(enrolled.json)")
        return (enrolled.json["authDataResponse"]?["mfa"]?["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    @Test(arguments: [true, false])
    func aProvidersSignInFollowsThePolicy(_ needsCode: Bool) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(Self.now)
        let clock = TestClock()
        var accounts = AccountsConfiguration()
        accounts.providerSignInNeedsSecondFactor = needsCode
        try await withServer(accounts: accounts, clock: clock, auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let token = try await idp.idToken("oidc", sub: "zoe", now: Self.now, ["email": "zoe@example.com", "email_verified": true])
            let authData = #"{"oidc":{"id":"zoe","token":"\#(token)"}"#
            let first = try await call(client, .post, "/parse/users", body: #"{"authData":\#(authData)}}"#)
            let id = try #require(first.json["objectId"]?.stringValue, "\(first.json)")
            _ = try await enrol(client, id: id, token: try #require(first.json["sessionToken"]?.stringValue), clock)
            clock.advance(by: .seconds(30))
            let bare = try await call(client, .post, "/parse/users", body: #"{"authData":\#(authData)}}"#)
            if needsCode {
                #expect(bare.status == 400 && bare.json == ["code": -1, "error": "Missing additional authData mfa"], "\(bare.json)")
                let wrong = try await call(client, .post, "/parse/users", body: #"{"authData":\#(authData),"mfa":{"token":"00000x"}}}"#)
                #expect(wrong.json["code"] == 141)
                let signedIn = try await call(client, .post, "/parse/users", body: #"{"authData":\#(authData),"mfa":{"token":"\#(code(clock))"}}}"#)
                #expect(signedIn.status == 200 && signedIn.json["objectId"]?.stringValue == id, "\(signedIn.json)")
                let created = try await call(
                    client, .get, "/parse/sessions/me", headers: session(try #require(signedIn.json["sessionToken"]?.stringValue)))
                #expect(created.json["createdWith"] == ["action": "login", "authProvider": "oidc", "secondFactor": "totp"], "\(created.json)")
            } else {
                #expect(bare.status == 200 && bare.json["objectId"]?.stringValue == id, "\(bare.json)")
                let created = try await call(
                    client, .get, "/parse/sessions/me", headers: session(try #require(bare.json["sessionToken"]?.stringValue)))
                #expect(created.json["createdWith"] == ["action": "login", "authProvider": "oidc"], "\(created.json)")
            }
        }
    }

    /// The browser sign-in's app code survives a missing or wrong second-factor code (so the app
    /// can ask for one), and still works only once.
    @Test func theBrowserSignInWaitsForTheCode() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await idp.setClock(Self.now)
        let clock = TestClock()
        var accounts = AccountsConfiguration()
        accounts.authRedirectURIs = ["http://127.0.0.1/callback"]
        try await withServer(accounts: accounts, clock: clock, auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let steps = BrowserSignInSteps(client: client)
            let first: String = try #require(try await steps.run("oidc", subject: "alice")["code"])
            let (status, user) = try await steps.redeem(first, verifier: steps.verifier)
            try #require(status == 200, "\(user)")
            let recovery = try await enrol(
                client, id: try #require(user["objectId"]?.stringValue), token: try #require(user["sessionToken"]?.stringValue), clock)
            clock.advance(by: .seconds(30))
            let appCode = try #require(try await steps.run("oidc", subject: "alice")["code"])
            let missing = try await steps.redeem(appCode, verifier: steps.verifier)
            #expect(missing.0 == 400 && missing.1 == ["code": -1, "error": "Missing additional authData mfa"], "\(missing.1)")
            let wrong = try await steps.redeem(appCode, verifier: steps.verifier, secondFactor: "000000" == code(clock) ? "111111" : "000000")
            #expect(wrong.0 == 400 && wrong.1["code"] == 141, "\(wrong.1)")
            let good = try await steps.redeem(appCode, verifier: steps.verifier, secondFactor: code(clock))
            #expect(good.0 == 200 && good.1["objectId"] == user["objectId"], "\(good.1)")
            // Used: gone, whatever code comes with it.
            let replay = try await steps.redeem(appCode, verifier: steps.verifier, secondFactor: recovery[0])
            #expect(replay.0 == 404 || replay.1["code"] == 101, "\(replay.1)")
            // Nor does a put-back code outlive its minute.
            let late = try #require(try await steps.run("oidc", subject: "alice")["code"])
            _ = try await steps.redeem(late, verifier: steps.verifier)
            clock.advance(by: .seconds(6 * 60))
            try await idp.setClock(Self.now + 6 * 60)
            #expect(try await steps.redeem(late, verifier: steps.verifier, secondFactor: recovery[1]).1["code"] == 101)
        }
    }

    @Test func enablingRemovalAndRecoveryCodesAreMailedInTheUsersLanguage() async throws {
        let server = try SMTPTestServer()
        let (mail, defaults) = mailSetup(server, verify: false)
        var accounts = defaults
        accounts.securityNotifications = SecurityNotificationSettings()
        accounts.securityNotifications.newDevice = false
        let clock = TestClock()
        try await withServer(accounts: accounts, mail: mail, clock: clock) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"pass phrase 1","email":"ana@example.com","locale":"ja"}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let recovery = try await enrol(client, id: id, token: token, clock)
            let login = try await call(
                client, .post, "/parse/login", body: #"{"username":"ana","password":"pass phrase 1","authData":{"mfa":{"token":"\#(recovery[0])"}}}"#)
            #expect(login.status == 200)
            clock.advance(by: .seconds(30))
            let off = try await call(client, .post, "/parse/users/me/mfa/disable", body: #"{"token":"\#(code(clock))"}"#, headers: session(token))
            #expect(off.status == 200, "\(off.json)")
            _ = try await server.waitForMessages(3)
            await mail.queue.drain()
            let messages = server.messages().map(FileOutbox.readable)
            let kinds = messages.compactMap { message in
                message.split(separator: "\n").first { $0.hasPrefix("X-Rooftop-Kind: ") }.map { String($0.dropFirst(16)) }
            }
            #expect(Set(kinds) == ["second_factor_enabled", "recovery_code_used", "second_factor_removed"], "\(kinds)")
            #expect(messages.allSatisfy { $0.contains("ana") && $0.contains("2段階認証") || $0.contains("リカバリーコード") }, "\(messages)")
            let used = try #require(messages.first { $0.contains("recovery_code_used") })
            #expect(used.contains("残りのリカバリーコードは 9 個です"))
            // No code, secret or recovery code in any of them.
            for message in messages {
                #expect(!message.contains(Base32.encode(Self.secret)) && !recovery.contains { message.contains($0) })
            }
        }
    }

    /// A password reset through the emailed link keeps the second factor (OWASP ASVS 6.4.3): the
    /// new password alone doesn't sign in.
    @Test func aPasswordResetKeepsTheSecondFactor() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        let clock = TestClock()
        try await withServer(accounts: accounts, mail: mail, clock: clock) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"pass phrase 1","email":"ana@example.com"}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            _ = try await enrol(client, id: id, token: try #require(signUp.json["sessionToken"]?.stringValue), clock)
            _ = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#)
            let token = String(try await link(server, message: 1).full.split(separator: "=").last ?? "")
            let done = try await page(
                client, .post, "/parse/apps/\(testAppId)/request_password_reset", form: "token=\(token)&new_password=fresh+phrase+2")
            #expect(done.status == 200)
            let bare = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"fresh phrase 2"}"#)
            #expect(bare.json == ["code": -1, "error": "Missing additional authData mfa"], "\(bare.json)")
            clock.advance(by: .seconds(30))
            let login = try await call(
                client, .post, "/parse/login", body: #"{"username":"ana","password":"fresh phrase 2","authData":{"mfa":{"token":"\#(code(clock))"}}}"#
            )
            #expect(login.status == 200, "\(login.json)")
        }
    }
}
