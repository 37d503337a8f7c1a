import RooftopCore
import RooftopStorage

/// After an email change, the address the account had keeps, for a day, the one power it held
/// until the change: asking for a password reset link, which then goes to that old address.
/// That is how the owner of a hijacked account acts on the "your email was changed" notice
/// without the notice carrying any secret: the reset ends every session (the intruder's too)
/// and lets them sign in and put their address back.
extension Accounts {
    /// How long the previous address can still ask for a reset (24 hours).
    static let previousEmailGrace: Int64 = 86_400_000

    /// Records that `address` was `userId`'s email until now (under a digest of the address).
    func rememberPreviousEmail(_ address: String, of userId: String) async throws {
        let expires = objects.clock().millisecondsSince1970 + Self.previousEmailGrace
        try await objects.store.putOneTime(
            key: Self.previousEmailKey(address, tokens), value: "\(expires)\n\(userId)\n\(address)", expiresAt: expires)
    }

    /// The user whose email `address` was until less than a day ago, and that address; nil when
    /// there is none. Reading keeps the record (taken and put back with its own expiry).
    func previousOwner(of address: String) async throws -> (user: StoredObject, address: String)? {
        let key = Self.previousEmailKey(address, tokens)
        let now = objects.clock().millisecondsSince1970
        guard let text = try await objects.store.takeOneTime(key: key, now: now) else { return nil }
        let parts = text.split(separator: "\n", maxSplits: 2).map(String.init)
        guard parts.count == 3, let expires = Int64(parts[0]) else { return nil }
        try await objects.store.putOneTime(key: key, value: text, expiresAt: expires)
        // Only while the address is still someone's old one: not an account's current email.
        guard let user = try await user(parts[1]), user.fields["email"]?.stringValue.map(AccountKey.normalize) != AccountKey.normalize(parts[2])
        else { return nil }
        return (user, parts[2])
    }

    static func previousEmailKey(_ address: String, _ tokens: any SessionTokenSource) -> String {
        "previous-email:" + tokens.digest(AccountKey.normalize(address))
    }
}
