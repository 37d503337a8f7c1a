import RooftopCore
import RooftopStorage

/// The challenges of passkey ceremonies: 256 random bits each, kept in the database (so a
/// ceremony started on one node finishes on any other) under a digest, for five minutes, and
/// taken once (`OneTimeStore.takeOneTime` deletes and returns in one statement: of two requests
/// racing with one challenge, at most one finds it, and a replay finds nothing).
struct PasskeyChallenges: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts

    /// How long a challenge waits for its ceremony (WebAuthn's recommended range tops out at 10
    /// minutes; the issue's bar is 5).
    static let lifetime: Int64 = 5 * 60 * 1000

    /// What a challenge was issued for.
    struct Issued: Equatable, Sendable {
        /// `registration`, `signIn` or `secondFactor`.
        var purpose: Purpose
        /// The user it was issued to (registration) or for (a sign-in with a username); nil for a
        /// usernameless sign-in, which the credential's user handle names.
        var userId: String?
    }

    /// A ceremony.
    enum Purpose: String, Sendable {
        case registration, signIn, secondFactor
    }

    /// A new challenge for `purpose` (and `userId`), stored until it expires: its bytes, and the
    /// base64url the options carry.
    func issue(_ purpose: Purpose, userId: String?) async throws -> (bytes: [UInt8], text: String) {
        let text = accounts.tokens.newSecret()
        guard let bytes = Base64URL.decode(text), bytes.count >= 16 else { throw ParseError.internalError }
        var record: [String: JSON] = ["purpose": .string(purpose.rawValue)]
        record["user"] = userId.map(JSON.string)
        try await accounts.server.store.putOneTime(
            key: Self.key(text, accounts: accounts), value: JSONWriter.string(.object(record), sortedKeys: true),
            expiresAt: accounts.objects.clock.now().millisecondsSince1970 + Self.lifetime)
        return (bytes, text)
    }

    /// Takes the challenge `bytes` (once): what it was issued for, or nil when it was never
    /// issued, was already taken, or expired.
    func take(_ bytes: [UInt8]) async throws -> Issued? {
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard let text = try await accounts.server.store.takeOneTime(key: Self.key(Base64URL.encode(bytes), accounts: accounts), now: now),
            case .object(let record)? = try? JSONParser.parse(Array(text.utf8)),
            let purpose = record["purpose"]?.stringValue.flatMap(Purpose.init(rawValue:))
        else { return nil }
        return Issued(purpose: purpose, userId: record["user"]?.stringValue)
    }

    /// The record's key: a digest of the challenge, never the challenge itself.
    static func key(_ text: String, accounts: Accounts) -> String { "passkey:" + accounts.tokens.digest(text) }
}
