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
    /// Turns on ana's TOTP factor through Rooftop's own routes.
    func enableCode(_ client: any TestClientProtocol, _ token: String, _ clock: TestClock) async throws {
        let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(token))
        let secret = try #require(started.json["secret"]?.stringValue.flatMap(Base32.decode))
        let code = TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / 30)
        let confirmed = try await call(client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(code)"}"#, headers: session(token))
        try #require(confirmed.status == 200, "\(confirmed.json)")
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
            let answer = try await assertion(client, &passkey, username: "ana")
            let signedIn = try await logIn(client, "ana", passkey: answer)
            #expect(signedIn.status == 200, "\(signedIn.json)")
            let token = try #require(signedIn.json["sessionToken"]?.stringValue)
            let current = try await call(client, .get, "/parse/sessions/me", headers: session(token))
            #expect(current.json["createdWith"] == ["action": "login", "authProvider": "password", "secondFactor": "passkey"], "\(current.json)")
            // The same answer again (its challenge is spent), bo's passkey, or ana's passkey with
            // the wrong password: refused as a wrong code is.
            #expect(try await logIn(client, "ana", passkey: answer).json == ["code": 141, "error": "Invalid MFA token"])
            let bosAnswer = try await assertion(client, &bos, username: "bo")
            #expect(try await logIn(client, "ana", passkey: bosAnswer).json == ["code": 141, "error": "Invalid MFA token"])
            let usernameless = try await assertion(client, &bos)
            #expect(try await logIn(client, "ana", passkey: usernameless).json == ["code": 141, "error": "Invalid MFA token"])
            let wrongPassword = try await call(
                client, .post, "/parse/login",
                body: JSONWriter.string([
                    "username": "ana", "password": "not it", "authData": ["mfa": ["passkey": try await assertion(client, &passkey, username: "ana")]],
                ]))
            #expect(wrongPassword.json["code"] == 101)
            // Garbage where the passkey goes is a wrong code too, not a crash.
            for garbage: JSON in ["x", ["$ne": 1], ["type": "public-key"], .array([])] {
                #expect(try await logIn(client, "ana", passkey: garbage).json["code"] == 141)
            }
        }
    }
}
