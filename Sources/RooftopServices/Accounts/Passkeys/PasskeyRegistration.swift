package import RooftopCore
import RooftopStorage

/// Registering a passkey (`/users/me/passkeys/registration/options`, then `/users/me/passkeys`):
/// for a signed-in user who is not anonymous, whose sign-in is recent (or who sends the
/// password), up to `passkeys.maxPerUser` passkeys. The options carry a challenge kept for five
/// minutes; the attestation that answers it is verified (WebAuthn L3 §7.1) and the credential
/// stored, audited, and told to the user by mail.
package struct PasskeyRegistration: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// How recent a sign-in must be to add a passkey without the password.
    static let recentSignIn: Int64 = 15 * 60 * 1000

    var passkeys: Passkeys { Passkeys(accounts: accounts) }

    /// `POST /users/me/passkeys/registration/options`: WebAuthn's creation options.
    package func options(userId: String, sessionToken: String?, body: [String: JSON]) async throws -> [String: JSON] {
        let (settings, relyingPartyId, _) = try passkeys.parts
        let user = try await passkeys.user(userId)
        try await requireRecentSignIn(user, sessionToken: sessionToken, password: body["password"])
        let stored = StoredPasskeys.of(user).passkeys
        guard stored.items.count < settings.maxPerUser else { throw full(settings) }
        let challenge = try await PasskeyChallenges(accounts: accounts).issue(.registration, userId: userId)
        let name = user.fields["username"]?.stringValue ?? user.fields["email"]?.stringValue ?? userId
        let appName = settings.relyingPartyName.isEmpty ? (accounts.appName.isEmpty ? "Rooftop" : accounts.appName) : settings.relyingPartyName
        return [
            "rp": ["id": .string(relyingPartyId), "name": .string(appName)],
            "user": ["id": .string(Base64URL.encode(PasskeyWire.userHandle(userId))), "name": .string(name), "displayName": .string(name)],
            "challenge": .string(challenge.text),
            "pubKeyCredParams": .array([-7, -8, -257].map { ["type": "public-key", "alg": .number(Double($0))] }),
            "timeout": .number(Double(Passkeys.timeout)),
            "excludeCredentials": .array(stored.items.map(PasskeyWire.descriptor)),
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": passkeys.userVerification],
            "attestation": "none",
        ]
    }

    /// `POST /users/me/passkeys`: verifies `credential` against the challenge issued to this user
    /// and stores it under `name` (or `Passkey`, `Passkey 2`, …).
    package func finish(userId: String, body: [String: JSON]) async throws -> [String: JSON] {
        let (settings, _, crypto) = try passkeys.parts
        let response = try PasskeyWire.registration(body)
        let name = try Self.name(body["name"])
        let refused = { (detail: String) in ParseError(.validationError, "The passkey could not be registered: \(detail)") }
        guard let challenge = crypto.verifier.challenge(inClientData: response.input.clientDataJSON),
            let issued = try await PasskeyChallenges(accounts: accounts).take(challenge),
            issued.purpose == .registration, issued.userId == userId
        else { throw refused("its challenge was not issued to this user, was used already, or expired; start again.") }
        let new: NewPasskey
        let ceremony = try passkeys.ceremony(challenge)
        do {
            new = try crypto.verifier.register(response.input, ceremony: ceremony)
        } catch {
            await accounts.audit.record(.passkeyAdded, userId: userId, reason: "refused: \(error.reason.rawValue)", origin: origin)
            throw refused(Self.explain(error.reason))
        }
        guard new.credentialId == response.credentialId else { throw refused("the credential id is not the one attested.") }
        let now = accounts.objects.clock.now().millisecondsSince1970
        let added = try await passkeys.update(userId) { list, _ -> StoredPasskey? in
            guard list.index(of: Base64URL.encode(new.credentialId)) == nil else { throw refused("it is registered already.") }
            guard list.items.count < settings.maxPerUser else { throw full(settings) }
            let passkey = StoredPasskey(new, name: name ?? list.defaultName(), transports: response.transports, at: now)
            list.items.append(passkey)
            return passkey
        }
        guard let added else { throw ParseError.internalError }
        await accounts.audit.record(.passkeyAdded, userId: userId, detail: added.name, origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.passkeyAdded(name: added.name), userId: userId)
        return added.answer
    }

    /// A sign-in within `recentSignIn`, or the account's password: a stolen session alone can't
    /// add a way in that outlives it. The session must come from a sign-in (a login or a sign-up;
    /// not a session minted from another by `POST /sessions` or an upgrade, nor the master key's
    /// `/loginAs`); an account with a second factor needs a session that proved it, and then the
    /// password alone is not enough. A password sent is checked as a login checks it: counted by
    /// the lockout and audited when wrong.
    func requireRecentSignIn(_ user: StoredObject, sessionToken: String?, password: JSON?) async throws {
        if try await accounts.isAnonymousOnly(user.objectId) { throw Self.anonymous }
        let hasSecondFactor = SecondFactorState(of: user) != nil
        if let password, !hasSecondFactor {
            guard case .string(let username)? = user.fields["username"] else { throw Self.stale }
            let (checked, _) = try await LogIn(accounts: accounts, origin: origin).checkCredentials(
                ["username": .string(username), "password": password])
            guard checked.objectId == user.objectId else { throw ParseError(.objectNotFound, "Invalid username/password.") }
            return
        }
        guard let sessionToken else { throw hasSecondFactor ? Self.weak : Self.stale }
        let (_, sessionId) = try await accounts.sessions.validate(sessionToken)
        let session = try await accounts.sessions.owned(sessionId, by: .master)
        guard let strength = SessionStrength(createdWith: session["createdWith"]),
            ["login", "signup"].contains(session["createdWith"]?["action"]?.stringValue ?? ""), strength.firstFactor != "masterkey",
            let createdAt = session["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)),
            accounts.objects.clock.now().millisecondsSince1970 - createdAt.millisecondsSince1970 <= Self.recentSignIn
        else { throw hasSecondFactor ? Self.weak : Self.stale }
        if hasSecondFactor && !strength.isMultiFactor { throw Self.weak }
    }

    static let anonymous = ParseError(.operationForbidden, "An anonymous user can't add a passkey: sign up first.")
    static let stale = ParseError(
        .operationForbidden, "Adding a passkey needs a sign-in from the last 15 minutes: sign in again, or send the password.")
    static let weak = ParseError(
        .operationForbidden, "Adding a passkey to an account with a second factor needs a sign-in with it from the last 15 minutes: sign in again.")

    func full(_ settings: PasskeySettings) -> ParseError {
        ParseError(.operationForbidden, "This account has \(settings.maxPerUser) passkeys, the most it may have: remove one first.")
    }

    /// A passkey's name as given: a string of 1 to 64 characters (256 bytes of UTF-8) without
    /// control characters or the bidirectional controls that could disguise it in a notice.
    static func name(_ json: JSON?) throws(ParseError) -> String? {
        guard let json, json != .null else { return nil }
        guard case .string(let text) = json, !text.isEmpty, text.count <= 64, text.utf8.count <= 256,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || bidiControls.contains($0.value) })
        else { throw invalidName }
        return text
    }

    /// The answer to a name that is not one.
    static let invalidName = ParseError(.invalidValue, "name must be a string of 1 to 64 characters, without control characters.")

    /// Unicode's bidirectional formatting characters (UAX #9): marks, embeddings, overrides, isolates.
    static let bidiControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    /// What the user is told of a refused registration (it is their own ceremony: no secret).
    static func explain(_ reason: PasskeyRefusal.Reason) -> String {
        switch reason {
        case .wrongOrigin: "it was made for another site or app (its origin is not allowed here)."
        case .wrongRelyingParty: "it was made for another relying party ID."
        case .userNotVerified: "the authenticator did not verify the user (a PIN or biometrics is required)."
        case .userNotPresent: "the authenticator did not confirm the user was present."
        case .unsupportedKey: "its key type is not supported (ES256, EdDSA and RS256 are)."
        default: "the authenticator's answer did not check out (\(reason.rawValue))."
        }
    }
}
