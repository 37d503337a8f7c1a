import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// What the passkey suites share: the relying party they configure, sign-up, and the two
/// ceremonies run with a software authenticator over the real routes.
protocol PasskeyTesting: LiveServerTest {}

extension PasskeyTesting {
    static var origin: String { "https://app.example.com" }
    static var password: String { #""password":"pass phrase 1""# }

    /// Accounts with passkeys on for `app.example.com` (and `maxPerUser`).
    func passkeyAccounts(maxPerUser: Int = 10, userVerification: Bool = true) -> AccountsConfiguration {
        var accounts = AccountsConfiguration()
        accounts.passkeys.relyingPartyId = "example.com"
        accounts.passkeys.origins = [Self.origin]
        accounts.passkeys.maxPerUser = maxPerUser
        accounts.passkeys.requiresUserVerification = userVerification
        return accounts
    }

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> (id: String, token: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)",\#(Self.password)}"#)
        return (try #require(reply.json["objectId"]?.stringValue, "\(reply.json)"), try #require(reply.json["sessionToken"]?.stringValue))
    }

    /// A new software passkey for the configured relying party.
    func authenticator(_ algorithm: SoftwarePasskey.Algorithm = .es256) -> SoftwarePasskey {
        SoftwarePasskey(algorithm: algorithm, rpId: "example.com", origin: Self.origin)
    }

    /// Registers `passkey` for the session's user: the options, then the authenticator's answer.
    func register(_ client: any TestClientProtocol, _ token: String, _ passkey: inout SoftwarePasskey, name: String? = nil) async throws -> Reply {
        let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: session(token))
        try #require(options.status == 200, "\(options.json)")
        var body: [String: JSON] = ["credential": try passkey.respond(toCreationOptions: options.json)]
        body["name"] = name.map(JSON.string)
        return try await call(client, .post, "/parse/users/me/passkeys", body: JSONWriter.string(.object(body)), headers: session(token))
    }

    /// The sign-in options (`username` or none; for a login's second step when `secondFactor`)
    /// and `passkey`'s answer to them.
    func assertion(
        _ client: any TestClientProtocol, _ passkey: inout SoftwarePasskey, username: String? = nil, secondFactor: Bool = false
    ) async throws -> JSON {
        var fields: [String: JSON] = [:]
        fields["username"] = username.map(JSON.string)
        if secondFactor { fields["secondFactor"] = true }
        let body = JSONWriter.string(.object(fields))
        let options = try await call(client, .post, "/parse/passkeys/authentication/options", body: body)
        try #require(options.status == 200, "\(options.json)")
        return try passkey.respond(toRequestOptions: options.json)
    }

    /// Signs in with `credential` (an assertion's JSON).
    func signIn(_ client: any TestClientProtocol, _ credential: JSON) async throws -> Reply {
        try await call(client, .post, "/parse/passkeys/authentication", body: JSONWriter.string(["credential": credential]))
    }

    /// The number of sessions of every user (the master key's view).
    func sessionCount(_ client: any TestClientProtocol) async throws -> Int {
        try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"]?.numberValue.map(Int.init) ?? -1
    }

    /// `credential` with `member` of its `response` replaced.
    func replacing(_ credential: JSON, _ member: String, with value: JSON) -> JSON {
        guard case .object(var fields) = credential, case .object(var response)? = fields["response"] else { return credential }
        response[member] = value
        fields["response"] = .object(response)
        return .object(fields)
    }
}
