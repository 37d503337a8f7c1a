package import RooftopCore
import RooftopStorage

/// Linking a provider through the browser without the session in a URL: the signed-in app
/// trades its session (in a header) for a single-use link code bound to its PKCE challenge,
/// and the start URL carries only that code (`docs/providers.md`, `docs/security.md`).
extension Accounts {
    /// How long a link start code works (ms): the app opens the start URL at once.
    static let linkCodeLifetime: Int64 = 60_000

    /// `POST /auth/:provider/link` (with the session in the header): a single-use start code,
    /// valid for a minute, that makes the browser flow started with `code_challenge` link the
    /// identity to this user. The session token itself never goes into a URL; the code is bound
    /// to the app's challenge, so whoever sees the start URL can't finish the link elsewhere.
    package func issueLinkCode(provider name: String, sessionToken: String, body: [String: JSON]) async throws -> [String: JSON] {
        _ = try providers.browserProvider(name)
        guard let userId = try await principal(forToken: sessionToken).userId else { throw Self.invalidToken }
        guard case .string(let challenge)? = body["code_challenge"], Self.isPKCEValue(challenge, length: 43...43) else {
            throw ParseError(.invalidJSON, "code_challenge must be the S256 challenge of the app's code verifier (43 characters).")
        }
        let code = tokens.newSecret()
        let record: JSON = ["user": .string(userId), "provider": .string(name), "challenge": .string(challenge)]
        try await objects.store.putOneTime(
            key: "link:" + tokens.digest(code), value: String(decoding: JSONWriter.bytes(record), as: UTF8.self),
            expiresAt: objects.clock().millisecondsSince1970 + Self.linkCodeLifetime)
        return ["linkCode": .string(code), "expiresIn": .number(Double(Self.linkCodeLifetime / 1000))]
    }

    /// The user a link start code names: taken once, for this provider and this challenge.
    func takeLinkCode(_ code: String, provider name: String, challenge: String) async throws -> String {
        let invalid = ParseError(.invalidSessionToken, "The link code is invalid, expired or already used. Start the link again from the app.")
        guard Self.isPKCEValue(code, length: 43...43) else { throw invalid }
        let now = objects.clock().millisecondsSince1970
        guard let text = try await objects.store.takeOneTime(key: "link:" + tokens.digest(code), now: now),
            case .object(let record)? = try? JSONParser.parse(Array(text.utf8)), let userId = record["user"]?.stringValue,
            record["provider"]?.stringValue == name, record["challenge"]?.stringValue == challenge
        else { throw invalid }
        guard try await user(userId) != nil else { throw invalid }
        return userId
    }
}
