package import RooftopCore
import RooftopStorage

/// Signing in with a passkey (`/passkeys/authentication/options`, then
/// `/passkeys/authentication`): usernameless (the discoverable credential's user handle names
/// the account) or with a username hint (the options list that user's credentials). The same
/// check stands in for a second factor's code at a password login (`authData.mfa.passkey`).
///
/// Every refusal is the same 101 `Invalid passkey.`, with the reason in the audit log only; a
/// username without passkeys gets options with a stand-in credential id derived from it, so the
/// options don't tell which usernames exist.
package struct PasskeySignIn: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// The answer to every refused passkey sign-in.
    static let invalid = ParseError(.objectNotFound, "Invalid passkey.")

    var passkeys: Passkeys { Passkeys(accounts: accounts) }

    /// `POST /passkeys/authentication/options`: WebAuthn's request options, for any account
    /// (`{}`) or for `username`'s.
    package func options(body: [String: JSON]) async throws -> [String: JSON] {
        let (_, relyingPartyId, crypto) = try passkeys.parts
        var allow: [JSON] = []
        var userId: String?
        // `secondFactor: true`: for a login's second step (`authData.mfa.passkey`), which a
        // sign-in's challenge can't answer, nor this one a sign-in.
        let purpose: PasskeyChallenges.Purpose
        switch body["secondFactor"] {
        case nil, .null?, .bool(false)?: purpose = .signIn
        case .bool(true)?:
            guard body["username"] != nil else { throw ParseError(.invalidValue, "secondFactor needs the username.") }
            purpose = .secondFactor
        default: throw ParseError(.invalidValue, "secondFactor must be true or false.")
        }
        if let name = body["username"], name != .null {
            guard case .string(let username) = name, !username.isEmpty, username.utf8.count <= 1024 else {
                throw ParseError(.invalidValue, "username must be a non-empty string.")
            }
            try AccountInput.refuseNUL(name, .username)
            let user = try await accounts.directory.user(username: username)
            let stored = user.map { StoredPasskeys.of($0).passkeys.items } ?? []
            if let user, !stored.isEmpty {
                userId = user.objectId
                allow = stored.map(PasskeyWire.descriptor)
            } else {
                allow = Self.decoys(for: AccountKey.normalize(username), crypto.decoys)
                userId = ""
            }
        }
        let challenge = try await PasskeyChallenges(accounts: accounts).issue(purpose, userId: userId)
        return [
            "challenge": .string(challenge.text), "rpId": .string(relyingPartyId), "timeout": .number(Double(Passkeys.timeout)),
            "userVerification": passkeys.userVerification, "allowCredentials": .array(allow),
        ]
    }

    /// Stand-in descriptors for a username without passkeys: one or two, 16, 20 or 32 bytes long
    /// (the lengths iCloud Keychain, Google Password Manager and security keys use) and listed
    /// like stored ones, all derived from the name under a server key — the same on every
    /// request and node, so repeated asks can't tell them from real ones. Nothing signs in with them.
    static func decoys(for key: String, _ mac: any KeyedMAC) -> [JSON] {
        let seed = mac.mac(Array(("passkey decoys\n" + key).utf8))
        let count = 1 + Int(seed[0] % 2)
        return (0..<count).map { index in
            let bytes = mac.mac(Array(("passkey decoy \(index)\n" + key).utf8))
            let length = [16, 20, 32][Int(bytes[0] % 3)]
            return ["type": "public-key", "id": .string(Base64URL.encode(Array(bytes.prefix(length)))), "transports": ["hybrid", "internal"]]
        }
    }

    /// `POST /passkeys/authentication`: the user signed in, with a new session.
    package func finish(body: [String: JSON], installationId: String?) async throws -> [String: JSON] {
        let response = try PasskeyWire.assertion(body["credential"])
        let user: StoredObject
        let checked: CheckedAssertion
        do {
            (user, checked) = try await prove(response, purpose: .signIn, expectedUser: nil)
            // An account with a second factor takes a passkey alone only when the authenticator
            // verified the user (biometrics or the device's PIN: two factors in one).
            if SecondFactorState(of: user) != nil && !checked.userVerified {
                throw Failure(reason: "second factor account without user verification", userId: user.objectId)
            }
        } catch let failure as Failure {
            await accounts.audit.record(.loginFailed, userId: failure.userId, reason: "passkey: \(failure.reason)", origin: origin)
            throw Self.invalid
        }
        // As a password login: a master-only user can't sign in, and an unverified email waits.
        if let acl = user.acl, acl.readers.isEmpty && acl.writers.isEmpty {
            await accounts.audit.record(.loginFailed, userId: user.objectId, reason: "passkey: master-only user", origin: origin)
            throw Self.invalid
        }
        if accounts.config.verifyUserEmails && accounts.config.preventLoginWithUnverifiedEmail && user.fields["emailVerified"] != .bool(true) {
            throw Accounts.emailNotVerified
        }
        try await accounts.loginTrigger(.beforeLogin, user, origin: origin)
        let token = try await accounts.openSession(
            for: user, action: "login", provider: "passkey", secondFactor: checked.userVerified ? .userVerification : nil,
            installationId: installationId, recording: .login, detail: "passkey", origin: origin)
        try await accounts.loginTrigger(.afterLogin, user, origin: origin)
        return Accounts.withToken(user.json, token)
    }

    /// A refused proof, with what the audit log records.
    struct Failure: Error {
        var reason: String
        var userId: String?
    }

    /// Checks `response`: its challenge (taken once, issued for `purpose`, for `expectedUser` or
    /// the user it names), the account (the challenge's user, else the user handle's; a handle
    /// sent must be that account's), the credential (one of the account's), and WebAuthn's
    /// checks under its stored key; then records its use (counter, backup state, last use). The
    /// signed-in user, read after the write.
    func prove(
        _ response: PasskeyWire.Assertion, purpose: PasskeyChallenges.Purpose, expectedUser: String?
    ) async throws -> (StoredObject, CheckedAssertion) {
        let (_, _, crypto) = try passkeys.parts
        guard let challenge = crypto.verifier.challenge(inClientData: response.input.clientDataJSON) else {
            throw Failure(reason: "malformed client data")
        }
        guard let issued = try await PasskeyChallenges(accounts: accounts).take(challenge), issued.purpose == purpose else {
            throw Failure(reason: "challenge not issued, used or expired")
        }
        let handleUser = response.userHandle.map { String(decoding: $0, as: UTF8.self) }
        guard let userId = issued.userId ?? expectedUser ?? handleUser, ObjectId.isPlausible(userId) else {
            throw Failure(reason: issued.userId == "" ? "username without passkeys" : "no user handle")
        }
        if let expectedUser, expectedUser != userId { throw Failure(reason: "challenge issued for another user", userId: expectedUser) }
        if let handleUser, handleUser != userId { throw Failure(reason: "user handle of another account", userId: userId) }
        guard let user = try await accounts.directory.user(userId) else { throw Failure(reason: "unknown user handle") }
        let id = Base64URL.encode(response.credentialId)
        guard let stored = StoredPasskeys.of(user).passkeys.items.first(where: { $0.id == id }), let key = Base64URL.decode(stored.publicKey)
        else { throw Failure(reason: "unknown credential", userId: userId) }
        let checked: CheckedAssertion
        do {
            checked = try crypto.verifier.assert(response.input, publicKey: key, ceremony: try passkeys.ceremony(challenge))
        } catch let refusal as PasskeyRefusal {
            throw Failure(reason: refusal.reason.rawValue, userId: userId)
        }
        try await recordUse(of: id, checked, user: user)
        return (try await passkeys.user(userId), checked)
    }

    /// Records a verified use: the last use, the backup state, and the counter, which may only go
    /// up (0 means the authenticator keeps none, as synced passkeys do). One that goes back (a
    /// possible clone) is counted and audited; the sign-in still completes, as WebAuthn leaves
    /// that choice to the relying party and a synced passkey's counter can't be trusted anyway.
    func recordUse(of id: String, _ checked: CheckedAssertion, user: StoredObject) async throws {
        let userId = user.objectId
        let now = accounts.objects.clock.now().millisecondsSince1970
        let wentBack = try await passkeys.update(userId, readAs: user) { list, _ -> Bool? in
            guard let index = list.index(of: id) else { throw Failure(reason: "credential removed meanwhile", userId: userId) }
            var passkey = list.items[index]
            let regressed = (checked.signCount != 0 || passkey.signCount != 0) && checked.signCount <= passkey.signCount
            if regressed { passkey.counterRegressions += 1 }
            passkey.signCount = max(passkey.signCount, checked.signCount)
            passkey.lastUsedAt = now
            passkey.backedUp = checked.backedUp
            list.items[index] = passkey
            return regressed
        }
        if wentBack == true {
            await accounts.audit.record(.passkeyCounterWentBack, userId: userId, detail: "credential \(id.prefix(16))", origin: origin)
        }
    }
}
