import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Sign-in with a provider's native token against the stand-in identity provider: Apple, Google, a generic
/// OpenID Connect provider (discovery), Facebook and GitHub each sign up, log in, link and unlink.
@Suite struct ProviderSignInTests: LiveServerTest {
    /// The test clock's start, in seconds: tokens are minted at it.
    static let now: Int64 = 1_700_000_000

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    /// `{"<provider>":{…}}` in the provider's Parse shape, with a fresh token for `subject`.
    static func authData(_ idp: StandInIdentityProvider, _ provider: String, _ subject: String, _ extra: [String: JSON] = [:]) async throws
        -> String
    {
        switch provider {
        case "facebook":
            return #"{"facebook":{"id":"\#(subject)","access_token":"\#(try await idp.facebookToken(userId: subject))"}}"#
        case "github":
            return #"{"github":{"id":"\#(subject)","access_token":"\#(try await idp.githubToken(id: Int(subject) ?? 0))"}}"#
        default:
            let claims: [String: JSON] = ["email": .string("p\(subject)@example.com"), "email_verified": true]
            let token = try await idp.idToken(provider, sub: subject, now: now, claims.merging(extra) { $1 })
            return #"{"\#(provider)":{"id":"\#(subject)","\#(provider == "google" ? "id_token" : "token")":"\#(token)"}}"#
        }
    }

    /// `{"authData":{"<provider>":{…}}}`.
    static func signInBody(_ idp: StandInIdentityProvider, _ provider: String, _ subject: String) async throws -> String {
        #"{"authData":\#(try await authData(idp, provider, subject))}"#
    }

    func users(_ client: any TestClientProtocol) async throws -> Int {
        try await call(client, .get, "/parse/users?count=1&limit=0", master: true).json["count"]?.intValue ?? -1
    }

    @Test(arguments: ["apple", "google", "oidc", "facebook", "github"])
    func signUpLogInLinkAndUnlink(_ provider: String) async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let first = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, provider, "3001"))
            #expect(first.status == 201, "\(first.json)")
            let id = try #require(first.json["objectId"]?.stringValue)
            let token = try #require(first.json["sessionToken"]?.stringValue)
            // Stored: the subject and profile claims, never a token.
            let stored = try await call(client, .get, "/parse/users/\(id)", master: true).json["authData"]?[provider]
            #expect(stored?["id"] == "3001")
            for secret in ["token", "id_token", "access_token"] { #expect(stored?[secret] == nil) }
            if ["apple", "google", "oidc"].contains(provider) {
                #expect(stored?["email"] == "p3001@example.com" && stored?["email_verified"] == true)
            }
            // The same identity logs the same user in.
            let again = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, provider, "3001"))
            #expect(again.status == 200 && again.json["objectId"]?.stringValue == id)

            // A password user links the provider, then signs in with it.
            let ana = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let anaToken = try #require(ana.json["sessionToken"]?.stringValue)
            let link = try await call(
                client, .put, "/parse/users/\(anaId)", body: #"{"authData":\#(try await Self.authData(idp, provider, "3002"))}"#,
                headers: session(anaToken))
            #expect(link.status == 200, "\(link.json)")
            let viaProvider = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, provider, "3002"))
            #expect(viaProvider.status == 200 && viaProvider.json["objectId"]?.stringValue == anaId)

            // An identity linked to another user is 208, and nothing changes.
            let taken = try await call(
                client, .put, "/parse/users/\(anaId)", body: #"{"authData":\#(try await Self.authData(idp, provider, "3001"))}"#,
                headers: session(anaToken))
            #expect(taken.json["code"] == 208)
            #expect(try await call(client, .get, "/parse/users/\(anaId)", master: true).json["authData"]?[provider]?["id"] == "3002")

            // Unlinked, the identity no longer reaches Ana: it signs a new user up.
            let unlink = try await call(
                client, .put, "/parse/users/\(anaId)", body: #"{"authData":{"\#(provider)":null}}"#, headers: session(anaToken))
            #expect(unlink.status == 200)
            let fresh = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, provider, "3002"))
            #expect(fresh.status == 201 && fresh.json["objectId"]?.stringValue != anaId)

            // A provider-only user can't unlink its only way in.
            let last = try await call(client, .put, "/parse/users/\(id)", body: #"{"authData":{"\#(provider)":null}}"#, headers: session(token))
            #expect(last.json["code"] == 119)
            let still = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, provider, "3001"))
            #expect(still.status == 200 && still.json["objectId"]?.stringValue == id)
            #expect(try await users(client) == 3)
        }
    }

    @Test func anonymousUserConvertsByLinkingAProvider() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let device = UUID().uuidString.lowercased()
            let anonymous = try await call(client, .post, "/parse/users", body: #"{"authData":{"anonymous":{"id":"\#(device)"}}}"#)
            let id = try #require(anonymous.json["objectId"]?.stringValue)
            let token = try #require(anonymous.json["sessionToken"]?.stringValue)
            let acl = #"{"\#(id)":{"read":true,"write":true}}"#
            let note = try #require(
                try await call(client, .post, "/parse/classes/Note", body: #"{"t":"draft","ACL":\#(acl)}"#, headers: session(token))
                    .json["objectId"]?.stringValue)
            let link = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"authData":\#(try await Self.authData(idp, "google", "4001"))}"#,
                headers: session(token))
            #expect(link.status == 200, "\(link.json)")
            let signedIn = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, "google", "4001"))
            #expect(signedIn.status == 200 && signedIn.json["objectId"]?.stringValue == id)
            #expect(signedIn.json["authData"]?["anonymous"] == nil)
            let fresh = try #require(signedIn.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Note/\(note)", headers: session(fresh)).json["t"] == "draft")
            // The device id no longer reaches the converted account.
            let other = try await call(client, .post, "/parse/users", body: #"{"authData":{"anonymous":{"id":"\#(device)"}}}"#)
            #expect(other.status == 201 && other.json["objectId"]?.stringValue != id)
        }
    }

    /// Parse's rule, matched: a user updating itself may re-send the identity it has (same
    /// provider and id) with a token that no longer validates; it is neither checked nor
    /// written. Anything else is validated: another id, the master key, a login.
    @Test func unchangedAuthDataIsNotRevalidatedOnTheUsersOwnUpdate() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let first = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, "github", "7001"))
            let id = try #require(first.json["objectId"]?.stringValue)
            let token = try #require(first.json["sessionToken"]?.stringValue)
            let before = try await call(client, .get, "/parse/users/\(id)", master: true).json["authData"]
            // The same id with an expired (unknown) token, and a profile the provider never gave.
            let resent = #"{"nickname":"n","authData":{"github":{"id":"7001","access_token":"expired","email":"evil@example.com"}}}"#
            let update = try await call(client, .put, "/parse/users/\(id)", body: resent, headers: session(token))
            #expect(update.status == 200, "\(update.json)")
            let after = try await call(client, .get, "/parse/users/\(id)", master: true).json
            #expect(after["authData"] == before && after["nickname"] == "n")
            // Another id, or the id as a number, is validated (and refused).
            for body in [
                #"{"authData":{"github":{"id":"7002","access_token":"expired"}}}"#, #"{"authData":{"github":{"id":7001,"access_token":"x"}}}"#,
            ] {
                #expect(try await call(client, .put, "/parse/users/\(id)", body: body, headers: session(token)).status != 200, "\(body)")
            }
            // The master key's update is validated.
            #expect(try await call(client, .put, "/parse/users/\(id)", body: resent, master: true).json["code"] == 101)
            // Another provider beside the unchanged one is validated.
            let mixed = #"{"authData":{"github":{"id":"7001","access_token":"expired"},"oidc":{"id":"7001","token":"x"}}}"#
            #expect(try await call(client, .put, "/parse/users/\(id)", body: mixed, headers: session(token)).json["code"] == 101)
            // Another user can't use it on this user (206), nor sign in with it (101).
            let bob = try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"correct horse"}"#)
            let bobToken = try #require(bob.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .put, "/parse/users/\(id)", body: resent, headers: session(bobToken)).status != 200)
            let bobId = try #require(bob.json["objectId"]?.stringValue)
            #expect(try await call(client, .put, "/parse/users/\(bobId)", body: resent, headers: session(bobToken)).json["code"] == 101)
            let login = try await call(client, .post, "/parse/users", body: #"{"authData":{"github":{"id":"7001","access_token":"expired"}}}"#)
            #expect(login.json["code"] == 101)
            #expect(try await call(client, .get, "/parse/users/\(id)", master: true).json["authData"] == before)
        }
    }

    @Test func auditEventsNameTheProvider() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: idp.settings()) { (client: any TestClientProtocol) async throws in
            let first = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, "github", "5001"))
            let id = try #require(first.json["objectId"]?.stringValue)
            let token = try #require(first.json["sessionToken"]?.stringValue)
            _ = try await call(client, .post, "/parse/users", body: try await Self.signInBody(idp, "github", "5001"))
            _ = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"authData":\#(try await Self.authData(idp, "apple", "5002"))}"#, headers: session(token))
            _ = try await call(client, .put, "/parse/users/\(id)", body: #"{"authData":{"github":null}}"#, headers: session(token))
            _ = try await call(client, .post, "/parse/users", body: #"{"authData":{"github":{"id":"5001","access_token":"forged"}}}"#)
            let events = try await call(client, .get, "/parse/classes/_Audit?order=createdAt", master: true).json["results"]?.arrayValue ?? []
            let seen = Set(events.map { "\($0["type"]?.stringValue ?? "")/\($0["detail"]?.stringValue ?? "")" })
            #expect(seen == ["signup/github", "login/github", "provider.linked/apple", "provider.unlinked/github", "login.failed/github"], "\(seen)")
            // Nothing logged or stored carries a token.
            #expect(!JSONWriter.string(.array(events)).contains("forged"))
        }
    }

    @Test func unconfiguredProvidersAre252() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        try await withServer(clock: TestClock(), auth: Array(idp.settings().prefix(1))) { (client: any TestClientProtocol) async throws in
            for body in [try await Self.signInBody(idp, "google", "6001"), try await Self.signInBody(idp, "github", "6001")] {
                #expect(
                    try await call(client, .post, "/parse/users", body: body).json == [
                        "code": 252, "error": "This authentication method is unsupported.",
                    ])
            }
            #expect(try await users(client) == 0)
        }
    }
}
