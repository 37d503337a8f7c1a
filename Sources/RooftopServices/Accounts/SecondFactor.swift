import RooftopCore
import RooftopStorage

/// A second factor: TOTP codes (RFC 6238: 6 digits, 30 s, SHA-1, one step of drift) and ten
/// single-use recovery codes, on Parse's wire (the `mfa` auth adapter's shape): enrolment by
/// `PUT /users/:id` with `authData.mfa = {secret, token}`, and `POST /login` with
/// `authData.mfa.token` once enrolled. Rooftop's own routes (`SecondFactorSetup`) enrol with a
/// server-made secret, and disable or renew the recovery codes with a code.
///
/// Stricter than Parse: each code is accepted once, on every node (the state is written back
/// requiring the exact text it was read as); the secret is sealed under a server key and never
/// returned; recovery codes are 120 bits, stored as digests and spent once; wrong codes are
/// limited (`secondFactorMaxFailures` in a row, then 15 minutes of refusals); and a user can't
/// drop the factor through `authData.mfa = null`: that takes a code (`/users/me/mfa/disable`),
/// the master key, or a console owner (`AccountAdministration.removeSecondFactor`).
package struct SecondFactor: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves.
    let origin: RequestOrigin

    /// Parse's answer for a login without the code of an enrolled account.
    static let missing = ParseError(.otherCause, "Missing additional authData mfa")
    /// Parse's answer for a wrong, reused or malformed code.
    static let invalid = ParseError(.scriptFailed, "Invalid MFA token")
    /// How long codes are refused once the failures reach the limit.
    static let lockMilliseconds: Int64 = 15 * 60 * 1000
    /// Recovery codes per enrolment.
    static let recoveryCount = 10
    /// Where the state is stored.
    static let stateField = FieldPath(field: .internal(.secondFactor))

    /// What proved the holder of the factor.
    enum Proof: Sendable, Equatable {
        /// A TOTP code.
        case code
        /// A recovery code; `left` remain.
        case recovery(left: Int)
        /// One of the account's passkeys, in place of a code (`authData.mfa.passkey`).
        case passkey
        /// A passkey sign-in whose authenticator verified the user (biometrics or the device's
        /// PIN): the passkey is the first factor, the verification the second.
        case userVerification

        /// The name a session records for it (`createdWith.secondFactor`).
        var factor: String {
            switch self {
            case .code: "totp"
            case .recovery: "recovery"
            case .passkey: "passkey"
            case .userVerification: "userVerified"
            }
        }
    }

    /// What an enrolment writes into the user's update, and the answer's `authDataResponse.mfa`.
    struct Enrolment {
        var operations: [(FieldPath, FieldOperation)]
        var response: JSON
        /// The state text the update must still find (re-enrolling over an existing factor).
        var replacing: String?
    }

    /// The crypto parts, or Parse's answer when the server has none.
    var crypto: SecondFactorCrypto {
        get throws {
            guard let crypto = accounts.secondFactor else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
            return crypto
        }
    }

    /// Checks `data` (`{secret, token}`, and `old`: a current code, when a factor is already
    /// enrolled) for `user`, asked by `principal`: the writes that enrol it. `old` is proved like
    /// a login's code (spent, wrong ones counted, refused while locked).
    func enrol(_ data: JSON, user: StoredObject, principal: Principal) async throws -> Enrolment {
        let crypto = try self.crypto
        guard principal.userId == user.objectId else {
            throw ParseError(.operationForbidden, "A second factor is enrolled by the user, with a code from their authenticator.")
        }
        guard case .object(let fields) = data, case .string(let secretText)? = fields["secret"], case .string(let token)? = fields["token"],
            secretText.utf8.count <= 128, let secret = Base32.decode(secretText), (16...64).contains(secret.count)
        else { throw ParseError(.scriptFailed, "Invalid MFA data") }
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard let step = crypto.codes.matchingStep(secret: secret, code: token, atSeconds: now / 1000) else { throw Self.invalid }
        var replacing: String?
        if let current = SecondFactorState(of: user) {
            // Replacing a factor takes a code of the current one (Parse: `old`); the update then
            // requires the state that code left.
            try await prove(fields["old"], user: user, state: current, signingIn: false) { spent in
                replacing = spent.text
                return [(Self.stateField, .set(.string(spent.text)))]
            }
        }
        let (state, codes) = try newState(secret: secret, step: step, crypto: crypto)
        return Enrolment(
            operations: enabling(state), response: ["recovery": .array(codes.map(JSON.string))], replacing: replacing)
    }

    /// A new state for `secret` (its code of `step` just used), with fresh recovery codes.
    func newState(secret: [UInt8], step: Int64, crypto: SecondFactorCrypto) throws -> (SecondFactorState, [String]) {
        let (codes, digests) = recoveryCodes(crypto)
        return (SecondFactorState(secret: try crypto.box.seal(secret), step: step, recovery: digests), codes)
    }

    /// Ten new recovery codes, and the digests that are stored.
    func recoveryCodes(_ crypto: SecondFactorCrypto) -> (codes: [String], digests: [String]) {
        let codes = (0..<Self.recoveryCount).map { _ in crypto.codes.newRecoveryCode() }
        return (codes, codes.map { accounts.tokens.digest(Self.normalized($0)) })
    }

    /// The writes that store `state` and show `authData.mfa = {status: enabled}`; an enrolment
    /// started on Rooftop's routes dies with it (it can't later replace this one).
    func enabling(_ state: SecondFactorState) -> [(FieldPath, FieldOperation)] {
        [
            (Self.stateField, .set(.string(state.text))), (Self.statusField, .set(["status": "enabled"])),
            (FieldPath(field: .internal(.secondFactorPending)), .delete),
        ]
    }

    /// `authData.mfa`, what a read of the user shows.
    static var statusField: FieldPath { FieldPath(field: .authData, subkeys: ["mfa"]) }

    /// The writes that remove the factor (and a pending enrolment).
    static let removalOperations: [(FieldPath, FieldOperation)] = [
        (stateField, .delete), (statusField, .delete), (FieldPath(field: .internal(.secondFactorPending)), .delete),
    ]

    /// The writes that remove the factor through `authData.mfa = null`: the master key only (a
    /// user disables it with a code, `SecondFactorSetup.disable`).
    func removal(principal: Principal) throws -> [(FieldPath, FieldOperation)] {
        guard principal.isMaster else {
            throw ParseError(
                .operationForbidden, "Removing a second factor takes a code: POST /users/me/mfa/disable with {\"token\":\"<code>\"}.")
        }
        return Self.removalOperations
    }

    /// At login, after the first factor checked out: nil when `user` has no second factor, else
    /// the code in `authData.mfa.token` (or a recovery code) must be good, and is then spent.
    func check(_ user: StoredObject, authData: JSON?) async throws -> Proof? {
        guard let state = SecondFactorState(of: user) else { return nil }
        guard let mfa = authData?["mfa"], mfa != .null else { throw Self.missing }
        if let passkey = mfa["passkey"], passkey != .null { return try await provePasskey(passkey, user: user) }
        return try await prove(mfa["token"], user: user, state: state)
    }

    /// Checks a passkey's sign-in response (`authData.mfa.passkey`, its challenge from
    /// `/passkeys/authentication/options`) in place of a code: one of `user`'s passkeys must have
    /// signed it. A refused one is answered as a wrong code, and audited with its reason.
    func provePasskey(_ response: JSON, user: StoredObject) async throws -> Proof {
        do {
            _ = try await PasskeySignIn(accounts: accounts, origin: origin).prove(
                try PasskeyWire.assertion(response), purpose: .secondFactor, expectedUser: user.objectId)
            return .passkey
        } catch let failure as PasskeySignIn.Failure {
            await accounts.audit.record(.loginFailed, userId: user.objectId, reason: "second factor passkey: \(failure.reason)", origin: origin)
            throw Self.invalid
        } catch let error as ParseError where error.code == .invalidJSON {
            throw Self.invalid
        }
    }

    /// Checks `code` against `state` (as read from `user`) and writes back, requiring the exact
    /// state read, either the failure (counted; at the limit, codes are refused for 15 minutes)
    /// or `success`'s writes for the state after the code was spent: a code spent on another
    /// node, or a failure counted there, makes this attempt fail. A recovery code is audited;
    /// `signingIn`, the user is also told it signed in.
    @discardableResult
    func prove(
        _ code: JSON?, user: StoredObject, state: SecondFactorState, signingIn: Bool = true,
        success: (SecondFactorState) throws -> [(FieldPath, FieldOperation)] = { [(SecondFactor.stateField, .set(.string($0.text)))] }
    ) async throws -> Proof {
        let crypto = try self.crypto
        guard case .string(let code)? = code, code.utf8.count <= 64 else { throw Self.invalid }
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard state.lockedUntil <= now else { throw Self.invalid }
        let spent = spend(code, state: state, crypto: crypto, now: now)
        var write = ObjectWrite()
        if let spent {
            write.operations = try success(spent.state)
        } else {
            var failed = state
            failed.failures += 1
            if failed.failures >= accounts.config.secondFactorMaxFailures {
                failed.lockedUntil = now + Self.lockMilliseconds
                failed.failures = 0
            }
            write.operations = [(Self.stateField, .set(.string(failed.text)))]
        }
        try await writeRequiring(state, write, of: user.objectId)
        guard let proof = spent?.proof else { throw Self.invalid }
        if case .recovery(let left) = proof {
            await accounts.audit.record(
                .secondFactorRecoveryUsed, userId: user.objectId, detail: signingIn ? "\(left) left" : "to change the second factor", origin: origin)
            if signingIn { SecurityNotices(accounts: accounts, origin: origin).notify(.recoveryCodeUsed(left: left), userId: user.objectId) }
        }
        return proof
    }

    /// Writes `write` to the user, requiring the factor's state to still be `state`'s text; a
    /// change since is a refused code.
    func writeRequiring(_ state: SecondFactorState, _ write: ObjectWrite, of userId: String) async throws {
        try await writeRequiring(Access.master.requiring(.internal(.secondFactor), equals: state.text), write, of: userId)
    }

    /// Writes `write` to the user under `access` (what the write requires to still be there);
    /// finding something else is a refused code.
    func writeRequiring(_ access: Access, _ write: ObjectWrite, of userId: String) async throws {
        do {
            try await accounts.server.write([AsServer.update(.user, userId, at: accounts.objects.clock.now(), write, access: access)])
        } catch let error as ParseError where error.code == .objectNotFound {
            throw Self.invalid
        }
    }

    /// The state after spending `code` (a TOTP code of a step later than the last used, or an
    /// unused recovery code), and what it was; nil when it is neither. A secret sealed under an
    /// older key is sealed again under the current one.
    func spend(_ code: String, state: SecondFactorState, crypto: SecondFactorCrypto, now: Int64) -> (state: SecondFactorState, proof: Proof)? {
        var next = state
        next.failures = 0
        let digits = code.filter { $0 != " " }
        if digits.utf8.count == 6, let (secret, current) = crypto.box.open(state.secret),
            let step = crypto.codes.matchingStep(secret: secret, code: digits, atSeconds: now / 1000), step > state.step
        {
            next.step = step
            if !current, let resealed = try? crypto.box.seal(secret) { next.secret = resealed }
            return (next, .code)
        }
        let digest = accounts.tokens.digest(Self.normalized(code))
        // Every stored digest is compared, so the time doesn't tell which one matched.
        let matches = state.recovery.map { ConstantTime.equals($0.utf8, digest.utf8) }
        guard let index = matches.firstIndex(of: true) else { return nil }
        next.recovery.remove(at: index)
        return (next, .recovery(left: next.recovery.count))
    }

    /// A recovery code as typed: case, dashes and spaces don't matter.
    package static func normalized(_ code: String) -> String {
        String(code.lowercased().filter { $0 != "-" && $0 != " " })
    }
}

/// What the second factor needs from the crypto target: its codes and the box its secrets are
/// sealed in. Without it, enrolment is refused.
package struct SecondFactorCrypto: Sendable {
    /// TOTP codes and recovery codes.
    package let codes: any OneTimeCodes
    /// Seals and opens the TOTP secrets.
    package let box: any SecretSealing

    /// The parts, made by the crypto target.
    package init(codes: any OneTimeCodes, box: any SecretSealing) {
        self.codes = codes
        self.box = box
    }
}
