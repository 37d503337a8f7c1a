import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A second factor on Parse's wire (`authData.mfa`): enrolment with a first code, logins that
/// need a code, each code once, recovery codes once, a limit on wrong codes.
@Suite struct SecondFactorTests: LiveServerTest {
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    static let password = #""password":"pass phrase 1""#

    /// The code of the step `offset` steps from `clock`'s.
    func code(_ clock: TestClock, _ offset: Int64 = 0) -> String {
        TOTP.code(secret: Self.secret, step: clock.now().millisecondsSince1970 / 1000 / 30 + offset)
    }

    func logIn(_ client: any TestClientProtocol, mfa: String? = nil) async throws -> Reply {
        let authData = mfa.map { #","authData":{"mfa":{"token":"\#($0)"}}"# } ?? ""
        return try await call(client, .post, "/parse/login", body: #"{"username":"ana",\#(Self.password)\#(authData)}"#)
    }

    /// Signs up `ana` and enrols the factor: her id, session and recovery codes.
    func enrol(_ client: any TestClientProtocol, _ clock: TestClock) async throws -> (id: String, token: String, recovery: [String]) {
        let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana",\#(Self.password)}"#)
        let id = try #require(signUp.json["objectId"]?.stringValue)
        let token = try #require(signUp.json["sessionToken"]?.stringValue)
        let body = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(Self.secret))","token":"\#(code(clock))"}}}"#
        let enrolled = try await call(client, .put, "/parse/users/\(id)", body: body, headers: ["X-Parse-Session-Token": token])
        #expect(enrolled.status == 200, "\(enrolled.json)")
        let codes = enrolled.json["authDataResponse"]?["mfa"]?["recovery"]?.arrayValue ?? []
        let recovery = codes.compactMap { $0.stringValue }
        return (id, token, recovery)
    }

    @Test func loginsNeedACodeAndEachCodeWorksOnce() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let ana = try await enrol(client, clock)
            #expect(ana.recovery.count == 10)
            #expect(Set(ana.recovery).count == 10)
            // 24 base32 characters (120 bits) in six groups.
            #expect(ana.recovery.allSatisfy { $0.count == 29 && $0.split(separator: "-").count == 6 })
            // Reading the user shows that a factor is on, never its secret.
            let me = try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": ana.token])
            #expect(me.json["authData"]?["mfa"] == ["status": "enabled"], "\(me.json)")
            let text = JSONWriter.string(me.json)
            #expect(!text.contains(Base32.encode(Self.secret)) && !text.contains("second_factor"))

            // Checking the password opens nothing and asks for no code (as Parse).
            let verified = try await call(client, .post, "/parse/verifyPassword", body: #"{"username":"ana",\#(Self.password)}"#)
            #expect(verified.status == 200, "\(verified.json)")
            let missing = try await logIn(client)
            #expect(missing.status == 400 && missing.json == ["code": -1, "error": "Missing additional authData mfa"])
            let wrong = try await logIn(client, mfa: code(clock) == "000000" ? "111111" : "000000")
            #expect(wrong.status == 400 && wrong.json == ["code": 141, "error": "Invalid MFA token"], "\(wrong.json)")
            // The enrolment's code was spent there.
            #expect(try await logIn(client, mfa: code(clock)).json["code"] == 141)
            clock.advance(by: .seconds(30))
            let fresh = code(clock)
            let good = try await logIn(client, mfa: fresh)
            #expect(good.status == 200 && good.json["sessionToken"]?.stringValue != nil, "\(good.json)")
            #expect(good.json["authData"]?["mfa"] == ["status": "enabled"])
            // Replayed: refused.
            #expect(try await logIn(client, mfa: fresh).json["code"] == 141)
            // A code of the next step (drift) is good once; then neither it nor an older one is.
            #expect(try await logIn(client, mfa: code(clock, 1)).status == 200)
            #expect(try await logIn(client, mfa: code(clock)).json["code"] == 141)
            clock.advance(by: .seconds(90))
            // Two steps old: refused.
            #expect(try await logIn(client, mfa: code(clock, -2)).json["code"] == 141)
            // The previous step's code (drift the other way): accepted once.
            let previous = code(clock, -1)
            #expect(try await logIn(client, mfa: previous).status == 200)
            #expect(try await logIn(client, mfa: previous).json["code"] == 141)
            // A recovery code, as typed (case and dashes don't matter), works once.
            let recovery = ana.recovery[3].uppercased().replacingOccurrences(of: "-", with: " ")
            #expect(try await logIn(client, mfa: recovery).status == 200)
            #expect(try await logIn(client, mfa: ana.recovery[3]).json["code"] == 141)
            #expect(try await logIn(client, mfa: ana.recovery[4]).status == 200)
        }
    }

    /// Stored: the secret sealed (not in plain text, not base32 of it), recovery codes as digests.
    @Test func theSecretIsSealedAndRecoveryCodesAreDigests() async throws {
        let clock = TestClock()
        let stores = StoreBox()
        try await withServer(clock: clock, wrap: { stores.keep($0) }) { (client: any TestClientProtocol) async throws in
            let ana = try await enrol(client, clock)
            let store = try stores.store
            let users = try await store.find(
                FindRequest(className: .user, query: try QueryNode.parse(where: [:]), scope: AccessScope(classes: [.user: .master])))
            let stored = try #require(users.first?.fields[InternalField.secondFactor.rawValue]?.stringValue)
            #expect(!stored.contains(Base32.encode(Self.secret)) && stored.contains("v1."))
            for code in ana.recovery { #expect(!stored.contains(code) && !stored.contains(code.replacingOccurrences(of: "-", with: ""))) }
            #expect(stored.contains(SessionTokens().digest(ana.recovery[0].replacingOccurrences(of: "-", with: ""))))
        }
    }

    /// Wrong codes in a row past `secondFactorMaxFailures` refuse even a right one for 15 minutes.
    @Test func wrongCodesAreLimited() async throws {
        let clock = TestClock()
        var accounts = AccountsConfiguration()
        accounts.secondFactorMaxFailures = 3
        try await withServer(accounts: accounts, clock: clock) { (client: any TestClientProtocol) async throws in
            _ = try await enrol(client, clock)
            clock.advance(by: .seconds(30))
            for _ in 0..<3 { #expect(try await logIn(client, mfa: "12345x").json["code"] == 141) }
            #expect(try await logIn(client, mfa: code(clock)).json["code"] == 141)
            clock.advance(by: .seconds(15 * 60))
            #expect(try await logIn(client, mfa: code(clock)).status == 200)
        }
    }

    /// Hostile enrolments and removals.
    @Test func enrolmentRefusesWhatItCannotTrust() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana",\#(Self.password)}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            let session = ["X-Parse-Session-Token": try #require(signUp.json["sessionToken"]?.stringValue)]
            let good = Base32.encode(Self.secret)
            let long = String(repeating: "1", count: 10_000)
            let cases: [(String, JSON)] = [
                (#"{"secret":"not base32!","token":"123456"}"#, ["code": 141, "error": "Invalid MFA data"]),
                (#"{"secret":"ABCDEFGH","token":"123456"}"#, ["code": 141, "error": "Invalid MFA data"]),
                (#"{"secret":"\#(good)","token":{"$ne":null}}"#, ["code": 141, "error": "Invalid MFA data"]),
                (#"{"secret":"\#(good)","token":"\#(long)"}"#, ["code": 141, "error": "Invalid MFA token"]),
                (#"{"secret":"\#(good)","token":"12\u0000456"}"#, ["code": 141, "error": "Invalid MFA token"]),
                (#"{"secret":"\#(good)"}"#, ["code": 141, "error": "Invalid MFA data"]),
                (#""on""#, ["code": 141, "error": "Invalid MFA data"]),
            ]
            for (mfa, expected) in cases {
                let reply = try await call(client, .put, "/parse/users/\(id)", body: #"{"authData":{"mfa":\#(mfa)}}"#, headers: session)
                #expect(reply.status == 400 && reply.json == expected, "\(mfa): \(reply.json)")
            }
            // Not at sign-up: nothing would have proved the user holds the secret.
            let atSignUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"cy",\#(Self.password),"authData":{"mfa":{"secret":"\#(good)","token":"123456"}}}"#
            )
            #expect(atSignUp.status == 400 && atSignUp.json["code"] == 141, "\(atSignUp.json)")
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"cy",\#(Self.password)}"#).json["code"] == 101)
            // Nothing was enrolled: a login needs no code.
            #expect(try await logIn(client).status == 200)
            // Not on someone else's user, not by the master key.
            let bob = try await call(client, .post, "/parse/users", body: #"{"username":"bob",\#(Self.password)}"#)
            let bobSession = ["X-Parse-Session-Token": try #require(bob.json["sessionToken"]?.stringValue)]
            let enrolAna = #"{"authData":{"mfa":{"secret":"\#(good)","token":"\#(code(clock))"}}}"#
            #expect(try await call(client, .put, "/parse/users/\(id)", body: enrolAna, headers: bobSession).json["code"] == 206)
            #expect(try await call(client, .put, "/parse/users/\(id)", body: enrolAna, master: true).json["code"] == 119)
            // Enrolled by ana; she can't drop it without a code, the master key can.
            #expect(try await call(client, .put, "/parse/users/\(id)", body: enrolAna, headers: session).status == 200)
            let drop = #"{"authData":{"mfa":null}}"#
            #expect(try await call(client, .put, "/parse/users/\(id)", body: drop, headers: session).json["code"] == 119)
            #expect(try await logIn(client).json["code"] == -1)
            #expect(try await call(client, .put, "/parse/users/\(id)", body: drop, master: true).status == 200)
            #expect(try await logIn(client).status == 200)
        }
    }
}
