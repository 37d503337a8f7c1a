import RooftopCore
import RooftopStorage

/// What the passkey use cases share: the relying party's settings, the ceremony a challenge
/// opens, and the one way the stored list is written (requiring the exact text it was read as,
/// so a registration, a rename, a removal and a sign-in's counter update never lose each other).
struct Passkeys: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts

    /// Where the passkeys are stored.
    static let field = FieldPath(field: .internal(.passkeys))
    /// How long an authenticator may take (the options' `timeout`, ms): the challenge's life.
    static let timeout = PasskeyChallenges.lifetime

    /// The settings and crypto parts, or 252 when passkeys are not set up.
    var parts: (settings: PasskeySettings, relyingPartyId: String, crypto: PasskeyCrypto) {
        get throws {
            let settings = accounts.config.passkeys
            guard let crypto = accounts.passkeyCrypto, let relyingPartyId = settings.relyingPartyId, !relyingPartyId.isEmpty else {
                throw ParseError(.unsupportedService, "Passkeys are not set up on this server (passkeys.relyingPartyId, or publicServerURL).")
            }
            return (settings, relyingPartyId, crypto)
        }
    }

    /// The ceremony `challenge` opens.
    func ceremony(_ challenge: [UInt8]) throws -> PasskeyCeremony {
        let (settings, relyingPartyId, _) = try parts
        return PasskeyCeremony(
            relyingPartyId: relyingPartyId, origins: settings.allowedOrigins, challenge: challenge,
            requiresUserVerification: settings.requiresUserVerification)
    }

    /// The options' `userVerification`.
    var userVerification: JSON { accounts.config.passkeys.requiresUserVerification ? "required" : "preferred" }

    /// The user named `userId`, read fresh.
    func user(_ userId: String) async throws -> StoredObject {
        guard let user = try await accounts.directory.user(userId) else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return user
    }

    /// Applies `change` to the user's list and writes it, requiring the list as read; on a race
    /// (another write in between), reads again and retries, up to three times; `read`, the user as
    /// the caller just read it, saves the first read. `change` returns
    /// nil to write nothing; whatever else it returns comes back with the list written.
    func update<Result>(
        _ userId: String, readAs read: StoredObject? = nil, _ change: (inout StoredPasskeys, StoredObject) throws -> Result?
    ) async throws -> Result? {
        var known = read
        for _ in 0..<3 {
            // The user as the caller just read it, the first time; after a race, as it is now.
            let user: StoredObject
            if let read = known { user = read } else { user = try await self.user(userId) }
            known = nil
            var (list, text) = StoredPasskeys.of(user)
            guard let result = try change(&list, user) else { return nil }
            var write = ObjectWrite()
            write.operations = [(Self.field, .set(.string(list.text)))]
            // The list as read, or none at all: a first passkey and a racing write can't both land.
            let access = text.map { Access.master.requiring(.internal(.passkeys), equals: $0) } ?? Access.master.requiringAbsent(.internal(.passkeys))
            do {
                try await accounts.server.write([AsServer.update(.user, userId, at: accounts.objects.clock.now(), write, access: access)])
                return result
            } catch let error as ParseError where error.code == .objectNotFound {
                continue
            }
        }
        throw ParseError(.otherCause, "The passkeys changed while this request ran: try again.")
    }
}
