import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Rotating the key that seals second-factor secrets (`secondFactorKeys`): a new key put first
/// seals each secret again when its code is next used, the master key stays an opener, and a
/// secret whose key is gone still leaves the recovery codes working.
@Suite struct SecondFactorKeyTests: LiveServerTest {
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
    static let newKey = "a new second-factor key, 32 chars or more"

    func code(_ clock: TestClock) -> String { TOTP.code(secret: Self.secret, step: clock.now().millisecondsSince1970 / 1000 / 30) }

    func logIn(_ client: any TestClientProtocol, _ mfa: String) async throws -> Reply {
        try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"pass phrase 1","authData":{"mfa":{"token":"\#(mfa)"}}}"#)
    }

    /// The key id the stored secret is sealed under (`v1.<id>.…`).
    func keyId(_ stores: StoreBox) async throws -> String {
        let users = try await stores.store.find(
            FindRequest(className: .user, query: try QueryNode.parse(where: [:]), scope: AccessScope(classes: [.user: .master])))
        let text = try #require(users.first?.fields[InternalField.secondFactor.rawValue]?.stringValue)
        let state = try #require(try JSONParser.parse(Array(text.utf8))["secret"]?.stringValue)
        return String(state.split(separator: ".")[1])
    }

    @Test func aNewKeySealsEachSecretAgainOnItsNextUse() async throws {
        let directory = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let stores = StoreBox()
        let recovery = LockedBox<[String]>([])
        // The key id after each server's run.
        let ids = LockedBox<[String]>([])
        try await withServer(clock: clock, in: directory, wrap: { stores.keep($0) }) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"pass phrase 1"}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            let body = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(Self.secret))","token":"\#(code(clock))"}}}"#
            let enrolled = try await call(
                client, .put, "/parse/users/\(id)", body: body,
                headers: ["X-Parse-Session-Token": try #require(signUp.json["sessionToken"]?.stringValue)])
            let codes = (enrolled.json["authDataResponse"]?["mfa"]?["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
            recovery.withLock { $0 = codes }
            let id0 = try await keyId(stores)
            ids.withLock { $0 = [id0] }
        }
        var rotated = AccountsConfiguration()
        rotated.secondFactorKeys = [Self.newKey]
        clock.advance(by: .seconds(30))
        try await withServer(accounts: rotated, clock: clock, in: directory, wrap: { stores.keep($0) }) {
            (client: any TestClientProtocol) async throws in
            #expect(try await logIn(client, code(clock)).status == 200)
            let id1 = try await keyId(stores)
            ids.withLock { $0.append(id1) }
        }
        let seen = ids.withLock { $0 }
        #expect(seen.count == 2 && seen[0] != seen[1], "\(seen)")
        // The master key changed too: the new key alone opens it now.
        clock.advance(by: .seconds(30))
        try await withServer(
            configure: { _, http in http.masterKey = "another master key, never the first" }, accounts: rotated, clock: clock, in: directory,
            wrap: { stores.keep($0) }
        ) { (client: any TestClientProtocol) async throws in
            #expect(try await logIn(client, code(clock)).status == 200)
        }
        // The key dropped: codes can't be checked, recovery codes still sign in.
        clock.advance(by: .seconds(30))
        try await withServer(configure: { _, http in http.masterKey = "another master key, never the first" }, clock: clock, in: directory) {
            (client: any TestClientProtocol) async throws in
            #expect(try await logIn(client, code(clock)).json["code"] == 141)
            let first = try #require(recovery.withLock { $0.first })
            #expect(try await logIn(client, first).status == 200)
        }
    }
}
