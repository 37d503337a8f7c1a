import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

/// A passkey in place of the second factor's code at a password login (`authData.mfa.passkey`).
@Suite struct PasskeySecondFactorTests: PasskeyTesting {
    /// Turns on ana's TOTP factor through Rooftop's own routes: its secret.
    @discardableResult
    func enableCode(_ client: any TestClientProtocol, _ token: String, _ clock: TestClock) async throws -> [UInt8] {
        let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(token))
        let secret = try #require(started.json["secret"]?.stringValue.flatMap(Base32.decode))
        let code = TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / 30)
        let confirmed = try await call(client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(code)"}"#, headers: session(token))
        try #require(confirmed.status == 200, "\(confirmed.json)")
        return secret
    }

    func logIn(_ client: any TestClientProtocol, _ name: String, passkey: JSON?) async throws -> Reply {
        var body: [String: JSON] = ["username": .string(name), "password": "pass phrase 1"]
        if let passkey { body["authData"] = ["mfa": ["passkey": passkey]] }
        return try await call(client, .post, "/parse/login", body: JSONWriter.string(.object(body)))
    }

    @Test func aPasskeyStandsInForTheCodeAndIsRecordedAsTheSecondFactor() async throws {
        let clock = TestClock()
        try await withServer(accounts: passkeyAccounts(), clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let bo = try await signUp(client, "bo")
            var passkey = authenticator()
            var bos = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            #expect(try await register(client, bo.token, &bos).status == 201)
            try await enableCode(client, ana.token, clock)
            // Without anything, Parse's answer; with ana's passkey, a session that says so.
            #expect(try await logIn(client, "ana", passkey: nil).json["code"] == -1)
            let answer = try await assertion(client, &passkey, username: "ana", secondFactor: true)
            let signedIn = try await logIn(client, "ana", passkey: answer)
            #expect(signedIn.status == 200, "\(signedIn.json)")
            let token = try #require(signedIn.json["sessionToken"]?.stringValue)
            let current = try await call(client, .get, "/parse/sessions/me", headers: session(token))
            #expect(current.json["createdWith"] == ["action": "login", "authProvider": "password", "secondFactor": "passkey"], "\(current.json)")
            // The same answer again (its challenge is spent), bo's passkey, or ana's passkey with
            // the wrong password: refused as a wrong code is.
            #expect(try await logIn(client, "ana", passkey: answer).json == ["code": 141, "error": "Invalid MFA token"])
            let bosAnswer = try await assertion(client, &bos, username: "bo", secondFactor: true)
            #expect(try await logIn(client, "ana", passkey: bosAnswer).json == ["code": 141, "error": "Invalid MFA token"])
            let usernameless = try await assertion(client, &bos)
            #expect(try await logIn(client, "ana", passkey: usernameless).json == ["code": 141, "error": "Invalid MFA token"])
            // A sign-in's challenge doesn't answer a second step, nor a second step's a sign-in:
            // an answer captured from a login that failed can't sign in without the password.
            let forSignIn = try await assertion(client, &passkey, username: "ana")
            #expect(try await logIn(client, "ana", passkey: forSignIn).json == ["code": 141, "error": "Invalid MFA token"])
            let forSecondStep = try await assertion(client, &passkey, username: "ana", secondFactor: true)
            #expect(try await signIn(client, forSecondStep).json == ["code": 101, "error": "Invalid passkey."])
            let wrongPassword = try await call(
                client, .post, "/parse/login",
                body: JSONWriter.string([
                    "username": "ana", "password": "not it",
                    "authData": ["mfa": ["passkey": try await assertion(client, &passkey, username: "ana", secondFactor: true)]],
                ]))
            #expect(wrongPassword.json["code"] == 101)
            // Garbage where the passkey goes is a wrong code too, not a crash.
            for garbage: JSON in ["x", ["$ne": 1], ["type": "public-key"], .array([])] {
                #expect(try await logIn(client, "ana", passkey: garbage).json["code"] == 141)
            }
        }
    }

    @Test func anAccountWithASecondFactorTakesAPasskeyAloneOnlyWithUserVerification() async throws {
        let clock = TestClock()
        try await withServer(accounts: passkeyAccounts(userVerification: false), clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            var passkey = authenticator()
            #expect(try await register(client, ana.token, &passkey).status == 201)
            // Without a second factor, a passkey that only saw the user present signs in
            // (userVerification: preferred), and the session says no second factor was proved.
            passkey.userVerified = false
            let present = try await signIn(client, try await assertion(client, &passkey))
            #expect(present.status == 200, "\(present.json)")
            let presentToken = try #require(present.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/sessions/me", headers: session(presentToken)).json["createdWith"]?["secondFactor"] == nil)
            try await enableCode(client, ana.token, clock)
            // With one, it doesn't: the passkey would stand in for both factors.
            #expect(try await signIn(client, try await assertion(client, &passkey)).json == ["code": 101, "error": "Invalid passkey."])
            passkey.userVerified = true
            let verified = try await signIn(client, try await assertion(client, &passkey))
            #expect(verified.status == 200, "\(verified.json)")
            let token = try #require(verified.json["sessionToken"]?.stringValue)
            #expect(
                try await call(client, .get, "/parse/sessions/me", headers: session(token)).json["createdWith"]
                    == ["action": "login", "authProvider": "passkey", "secondFactor": "userVerified"])
        }
    }

    @Test func addingAPasskeyToAnAccountWithASecondFactorTakesASignInWithIt() async throws {
        let clock = TestClock()
        try await withServer(accounts: passkeyAccounts(), clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let secret = try await enableCode(client, ana.token, clock)
            // The sign-up's session proved no second factor; neither does the password alone.
            let options = "/parse/users/me/passkeys/registration/options"
            #expect(try await call(client, .post, options, body: "{}", headers: session(ana.token)).json["code"] == 119)
            #expect(try await call(client, .post, options, body: #"{\#(Self.password)}"#, headers: session(ana.token)).json["code"] == 119)
            // A login with the code does.
            clock.advance(by: .seconds(30))
            let code = TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / 30)
            let login = try await call(
                client, .post, "/parse/login", body: #"{"username":"ana",\#(Self.password),"authData":{"mfa":{"token":"\#(code)"}}}"#)
            let strong = try #require(login.json["sessionToken"]?.stringValue, "\(login.json)")
            #expect(try await call(client, .post, options, body: "{}", headers: session(strong)).status == 200)
        }
    }
}
