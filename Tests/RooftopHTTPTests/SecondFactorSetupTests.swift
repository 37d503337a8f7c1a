import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Rooftop's own second-factor routes (`/users/me/mfa…`): a server-made secret confirmed by a
/// first code, removal and new recovery codes with a code, and what a session records.
@Suite struct SecondFactorSetupTests: LiveServerTest {
    static let password = #""password":"pass phrase 1""#

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    /// The code an authenticator shows for `secret` (base32) at `clock`'s time, `offset` steps on.
    func code(_ secret: String, _ clock: TestClock, _ offset: Int64 = 0) throws -> String {
        TOTP.code(secret: try #require(Base32.decode(secret)), step: clock.now().millisecondsSince1970 / 1000 / 30 + offset)
    }

    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> (id: String, token: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)",\#(Self.password)}"#)
        return (try #require(reply.json["objectId"]?.stringValue), try #require(reply.json["sessionToken"]?.stringValue))
    }

    func logIn(_ client: any TestClientProtocol, _ name: String, mfa: String? = nil) async throws -> Reply {
        let authData = mfa.map { #","authData":{"mfa":{"token":"\#($0)"}}"# } ?? ""
        return try await call(client, .post, "/parse/login", body: #"{"username":"\#(name)",\#(Self.password)\#(authData)}"#)
    }

    /// Enrols `token`'s user through the native routes: the secret and the recovery codes.
    func enrol(_ client: any TestClientProtocol, _ token: String, _ clock: TestClock) async throws -> (secret: String, recovery: [String]) {
        let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(token))
        let secret = try #require(started.json["secret"]?.stringValue, "\(started.json)")
        let confirmed = try await call(
            client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(try code(secret, clock))"}"#, headers: session(token))
        let recovery = (confirmed.json["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
        try #require(recovery.count == 10, "\(confirmed.json)")
        return (secret, recovery)
    }

    @Test func aServerMadeSecretIsConfirmedByAFirstCodeAndRemovedWithOne() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            #expect(try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": false])
            let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(ana.token))
            let secret = try #require(started.json["secret"]?.stringValue)
            // 160 bits, and the URI an authenticator app reads from a QR code.
            #expect(Base32.decode(secret)?.count == 20)
            #expect(
                started.json["uri"]?.stringValue
                    == "otpauth://totp/Rooftop:ana?secret=\(secret)&issuer=Rooftop&algorithm=SHA1&digits=6&period=30")
            // The pending secret is nowhere to be read: not in the user, not in a query of users.
            for path in ["/parse/users/me", "/parse/users/\(ana.id)"] {
                let text = JSONWriter.string(try await call(client, .get, path, headers: session(ana.token)).json)
                #expect(!text.contains(secret) && !text.contains("second_factor") && !text.contains("v1."), "\(text)")
            }
            let listed = JSONWriter.string(try await call(client, .get, "/parse/users", master: true).json)
            #expect(!listed.contains(secret) && !listed.contains("second_factor"), "\(listed)")
            // Not on until confirmed: a login needs no code yet.
            #expect(try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": false])
            #expect(try await logIn(client, "ana").status == 200)
            // A wrong first code confirms nothing.
            let wrong = try code(secret, clock) == "000000" ? "111111" : "000000"
            let refused = try await call(client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(wrong)"}"#, headers: session(ana.token))
            #expect(refused.status == 400 && refused.json == ["code": 141, "error": "Invalid MFA token"])
            let first = try code(secret, clock)
            let confirmed = try await call(client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(first)"}"#, headers: session(ana.token))
            let recovery = (confirmed.json["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(recovery.count == 10, "\(confirmed.json)")
            // Confirming again (a replay) finds nothing pending.
            let again = try await call(client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(first)"}"#, headers: session(ana.token))
            #expect(again.status == 400 && again.json["code"] == 141)
            #expect(
                try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": true, "recoveryCodesLeft": 10])
            // The confirming code was spent; logins need the next one.
            #expect(try await logIn(client, "ana").json["code"] == -1)
            #expect(try await logIn(client, "ana", mfa: first).json["code"] == 141)
            clock.advance(by: .seconds(30))
            // Typed with a space, as authenticator apps show it.
            let spaced = try code(secret, clock)
            let login = try await logIn(client, "ana", mfa: String(spaced.prefix(3)) + " " + String(spaced.suffix(3)))
            #expect(login.status == 200)
            // The session records both factors.
            let token = try #require(login.json["sessionToken"]?.stringValue)
            let current = try await call(client, .get, "/parse/sessions/me", headers: session(token))
            #expect(current.json["createdWith"] == ["action": "login", "authProvider": "password", "secondFactor": "totp"], "\(current.json)")
            #expect(SessionStrength(createdWith: current.json["createdWith"])?.isMultiFactor == true)
            let viaRecovery = try await logIn(client, "ana", mfa: recovery[0])
            #expect(viaRecovery.status == 200)
            let recoveryToken = try #require(viaRecovery.json["sessionToken"]?.stringValue)
            #expect(
                try await call(client, .get, "/parse/sessions/me", headers: session(recoveryToken)).json["createdWith"]?["secondFactor"]
                    == "recovery")
            #expect(
                try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": true, "recoveryCodesLeft": 9])
            // A password-only session records one factor.
            let bob = try await signUp(client, "bob")
            let bobSession = try await call(client, .get, "/parse/sessions/me", headers: session(bob.token))
            #expect(SessionStrength(createdWith: bobSession.json["createdWith"])?.isMultiFactor == false)

            // Disabling takes a code: none, or a wrong one, removes nothing.
            #expect(try await call(client, .post, "/parse/users/me/mfa/disable", body: "{}", headers: session(ana.token)).json["code"] == 141)
            #expect(
                try await call(client, .post, "/parse/users/me/mfa/disable", body: #"{"token":"\#(wrong)"}"#, headers: session(ana.token))
                    .json["code"] == 141)
            #expect(try await logIn(client, "ana").json["code"] == -1)
            let disabled = try await call(
                client, .post, "/parse/users/me/mfa/disable", body: #"{"token":"\#(recovery[1])"}"#, headers: session(ana.token))
            #expect(disabled.status == 200 && disabled.json == [:], "\(disabled.json)")
            #expect(try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": false])
            let plain = try await logIn(client, "ana")
            #expect(plain.status == 200 && plain.json["authData"]?["mfa"] == nil, "\(plain.json)")
            // Disabling what isn't there says so.
            #expect(
                try await call(client, .post, "/parse/users/me/mfa/disable", body: #"{"token":"\#(recovery[2])"}"#, headers: session(ana.token))
                    .json == ["code": 141, "error": "This account has no second factor."])
            // Audited.
            let filter = try #require(#"{"userId":"\#(ana.id)"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=" + filter, master: true)
            let events = (audit.json["results"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }
            for event in ["second.factor.enabled", "second.factor.removed", "second.factor.recovery.used"] {
                #expect(events.contains(event), "\(events)")
            }
        }
    }

    @Test func recoveryCodesAreRenewedWithACodeAndTheOldOnesStopWorking() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let (secret, old) = try await enrol(client, ana.token, clock)
            clock.advance(by: .seconds(30))
            let renewed = try await call(
                client, .post, "/parse/users/me/mfa/recovery", body: #"{"token":"\#(try code(secret, clock))"}"#, headers: session(ana.token))
            let fresh = (renewed.json["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: old), "\(renewed.json)")
            #expect(try await logIn(client, "ana", mfa: old[0]).json["code"] == 141)
            #expect(try await logIn(client, "ana", mfa: fresh[0]).status == 200)
            // Starting over an enabled factor takes one of its codes (and spends it).
            let over = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(ana.token))
            #expect(over.status == 400 && over.json["code"] == 141)
            let replaced = try await call(
                client, .post, "/parse/users/me/mfa/enroll", body: #"{"token":"\#(fresh[1])"}"#, headers: session(ana.token))
            let newSecret = try #require(replaced.json["secret"]?.stringValue)
            // Until confirmed, the old factor is the one in force.
            clock.advance(by: .seconds(30))
            #expect(try await logIn(client, "ana", mfa: try code(newSecret, clock)).json["code"] == 141)
            #expect(try await logIn(client, "ana", mfa: try code(secret, clock)).status == 200)
            let confirmed = try await call(
                client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(try code(newSecret, clock))"}"#, headers: session(ana.token))
            #expect(confirmed.status == 200, "\(confirmed.json)")
            clock.advance(by: .seconds(30))
            #expect(try await logIn(client, "ana", mfa: try code(secret, clock)).json["code"] == 141)
            #expect(try await logIn(client, "ana", mfa: try code(newSecret, clock)).status == 200)
            // The old set died with the old factor.
            #expect(try await logIn(client, "ana", mfa: fresh[2]).json["code"] == 141)
        }
    }

    @Test func aStartedEnrolmentExpiresAfterTenMinutes() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(ana.token))
            let secret = try #require(started.json["secret"]?.stringValue)
            clock.advance(by: .seconds(601))
            let late = try await call(
                client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(try code(secret, clock))"}"#, headers: session(ana.token))
            #expect(late.status == 400 && late.json["code"] == 141 && late.json["error"]?.stringValue?.contains("10 minutes") == true)
            #expect(try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": false])
        }
    }

    /// Operators, NUL, huge input, the master key, another route: nothing enables, removes or
    /// leaks a factor, and nothing traps.
    @Test func hostileInputChangesNothing() async throws {
        let clock = TestClock()
        var accounts = AccountsConfiguration()
        accounts.secondFactorMaxFailures = 50
        try await withServer(accounts: accounts, clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let (secret, recovery) = try await enrol(client, ana.token, clock)
            let long = String(repeating: "1", count: 10_240)
            let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            let tokens = [
                #"{"$ne":null}"#, #"{"$regex":".*"}"#, #"["\#(recovery[0])"]"#, "null", "123456", "true", #""\#(long)""#, #""12\u0000456""#,
                #""\#(recovery[0])\u0000""#, deep,
            ]
            for route in ["disable", "recovery", "confirm"] {
                for token in tokens {
                    let reply = try await call(
                        client, .post, "/parse/users/me/mfa/\(route)", body: #"{"token":\#(token)}"#, headers: session(ana.token))
                    #expect(reply.status == 400, "\(route) \(token.prefix(40)): \(reply.status) \(reply.json)")
                    #expect(reply.json["code"]?.numberValue != nil)
                }
            }
            // As a login's token too.
            for token in tokens {
                let reply = try await call(
                    client, .post, "/parse/login", body: #"{"username":"ana",\#(Self.password),"authData":{"mfa":{"token":\#(token)}}}"#)
                #expect(reply.status == 400 && reply.json["sessionToken"] == nil, "\(token.prefix(40)): \(reply.json)")
            }
            // Still on, the recovery code still good once.
            #expect(
                try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": true, "recoveryCodesLeft": 10])
            // The master key has no account here; nor has a request without a session.
            #expect(try await call(client, .get, "/parse/users/me/mfa", master: true).json["code"] == 209)
            #expect(try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}").json["code"] == 209)
            // `_method` reaches the same rules.
            let overridden = try await call(client, .post, "/parse/users/me/mfa", body: #"{"_method":"GET"}"#, headers: session(ana.token))
            #expect(overridden.json == ["enabled": true, "recoveryCodesLeft": 10], "\(overridden.json)")
            let viaMethod = try await call(
                client, .post, "/parse/users/\(ana.id)", body: #"{"_method":"PUT","authData":{"mfa":null}}"#, headers: session(ana.token))
            #expect(viaMethod.json["code"] == 119, "\(viaMethod.json)")
            // A batch: another user's enrolment and a removal without a code are refused item by item.
            let bob = try await signUp(client, "bob")
            let enrolAna = #"{"authData":{"mfa":{"secret":"\#(secret)","token":"\#(try code(secret, clock, 1))"}}}"#
            let batch =
                #"{"requests":[{"method":"PUT","path":"/parse/users/\#(ana.id)","body":\#(enrolAna)},"#
                + #"{"method":"POST","path":"/parse/users/me/mfa/disable","body":{"token":"000000"}}]}"#
            let items = try await call(client, .post, "/parse/batch", body: batch, headers: session(bob.token))
            let results = items.json.arrayValue ?? []
            #expect(results.count == 2 && results.first?["error"]?["code"] == 206, "\(items.json)")
            #expect(results.last?["error"]?["code"] != nil, "\(items.json)")
            let transaction = #"{"transaction":true,"requests":[{"method":"PUT","path":"/parse/users/\#(ana.id)","body":{"authData":{"mfa":null}}}]}"#
            let inTransaction = try await call(client, .post, "/parse/batch", body: transaction, headers: session(ana.token))
            #expect(inTransaction.status == 400 || inTransaction.json.arrayValue?.first?["error"] != nil, "\(inTransaction.json)")
            #expect(
                try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": true, "recoveryCodesLeft": 10])
            #expect(try await logIn(client, "ana").json["code"] == -1)
            #expect(try await logIn(client, "ana", mfa: recovery[0]).status == 200)
            #expect(try await logIn(client, "ana", mfa: recovery[0]).json["code"] == 141)
        }
    }

    /// Parse's wire replaces a factor with `old`, a code proved like a login's: wrong ones count
    /// towards the limit, and while it holds even a right one is refused.
    @Test func replacingThroughParsesWireCountsWrongCodes() async throws {
        let clock = TestClock()
        var accounts = AccountsConfiguration()
        accounts.secondFactorMaxFailures = 3
        try await withServer(accounts: accounts, clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let (secret, _) = try await enrol(client, ana.token, clock)
            let next = Base32.encode((0..<20).map { UInt8($0) })
            clock.advance(by: .seconds(30))
            let replace = { (old: String) in
                #"{"authData":{"mfa":{"secret":"\#(next)","token":"\#(try self.code(next, clock))","old":"\#(old)"}}}"#
            }
            for _ in 0..<3 {
                let wrong = try await call(client, .put, "/parse/users/\(ana.id)", body: try replace("00000x"), headers: session(ana.token))
                #expect(wrong.json["code"] == 141, "\(wrong.json)")
            }
            let locked = try await call(
                client, .put, "/parse/users/\(ana.id)", body: try replace(try code(secret, clock)), headers: session(ana.token))
            #expect(locked.json["code"] == 141, "\(locked.json)")
            clock.advance(by: .seconds(15 * 60))
            let replaced = try await call(
                client, .put, "/parse/users/\(ana.id)", body: try replace(try code(secret, clock)), headers: session(ana.token))
            #expect(replaced.status == 200, "\(replaced.json)")
            clock.advance(by: .seconds(30))
            #expect(try await logIn(client, "ana", mfa: try code(next, clock)).status == 200)
        }
    }

    /// An enrolment started on Rooftop's routes can't replace a factor enabled after it started.
    @Test func aStaleEnrolmentCantReplaceALaterFactor() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let started = try await call(client, .post, "/parse/users/me/mfa/enroll", body: "{}", headers: session(ana.token))
            let stale = try #require(started.json["secret"]?.stringValue)
            // Meanwhile, a factor through Parse's wire.
            let own = Base32.encode((0..<20).map { UInt8($0 &+ 100) })
            let body = #"{"authData":{"mfa":{"secret":"\#(own)","token":"\#(try code(own, clock))"}}}"#
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: body, headers: session(ana.token)).status == 200)
            let confirm = try await call(
                client, .post, "/parse/users/me/mfa/confirm", body: #"{"token":"\#(try code(stale, clock))"}"#, headers: session(ana.token))
            #expect(confirm.status == 400 && confirm.json["code"] == 141, "\(confirm.json)")
            clock.advance(by: .seconds(30))
            #expect(try await logIn(client, "ana", mfa: try code(stale, clock)).json["code"] == 141)
            #expect(try await logIn(client, "ana", mfa: try code(own, clock)).status == 200)
        }
    }

    /// A login refused for another reason spends no code; a removal of nothing records nothing.
    @Test func aRefusedLoginSpendsNoCodeAndRemovingNothingIsNotNews() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let (_, recovery) = try await enrol(client, ana.token, clock)
            // Master-only (ACL {}): no login, whatever the code.
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"ACL":{}}"#, master: true).status == 200)
            #expect(try await logIn(client, "ana", mfa: recovery[0]).json["code"] == 101)
            #expect(
                try await call(client, .get, "/parse/users/me/mfa", headers: session(ana.token)).json == ["enabled": true, "recoveryCodesLeft": 10])
            // The master key's `mfa: null` on a user without one: no event.
            let bob = try await signUp(client, "bob")
            #expect(try await call(client, .put, "/parse/users/\(bob.id)", body: #"{"authData":{"mfa":null}}"#, master: true).status == 200)
            let filter = try #require(#"{"userId":"\#(bob.id)"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=" + filter, master: true)
            #expect(!(audit.json["results"]?.arrayValue ?? []).contains { $0["type"] == "second.factor.removed" }, "\(audit.json)")
        }
    }
}
