import RooftopCore
import RooftopStorage

/// A second factor: TOTP codes (RFC 6238: 6 digits, 30 s, SHA-1, one step of drift) and ten
/// single-use recovery codes, on Parse's wire (the `mfa` auth adapter's shape): enrolment by
/// `PUT /users/:id` with `authData.mfa = {secret, token}`, and `POST /login` with
/// `authData.mfa.token` once enrolled.
///
/// Stricter than Parse: each code is accepted once, on every node (the state is written back
/// requiring the exact text it was read as); the secret is sealed under a server key and never
/// returned; recovery codes are 120 bits, stored as digests and spent once; wrong codes are
/// limited (`secondFactorMaxFailures` in a row, then 15 minutes of refusals); and a user can't
/// drop the factor through `authData.mfa = null` — only the master key can, for now.
struct SecondFactor: Sendable {
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

    /// What an enrolment writes into the user's update, and the answer's `authDataResponse.mfa`.
    struct Enrolment {
        var operations: [(FieldPath, FieldOperation)]
        var response: JSON
        /// The state text the update must still find (re-enrolling over an existing factor).
        var replacing: String?
    }

    /// Checks `data` (`{secret, token}`, and `old`: a current code, when a factor is already
    /// enrolled) for `user`, asked by `principal`: the writes that enrol it.
    func enrol(_ data: JSON, user: StoredObject, principal: Principal) throws -> Enrolment {
        guard let crypto = accounts.secondFactor else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
        guard principal.userId == user.objectId else {
            throw ParseError(.operationForbidden, "A second factor is enrolled by the user, with a code from their authenticator.")
        }
        guard case .object(let fields) = data, case .string(let secretText)? = fields["secret"], case .string(let token)? = fields["token"],
            secretText.utf8.count <= 128, let secret = Base32.decode(secretText), (16...64).contains(secret.count)
        else { throw ParseError(.scriptFailed, "Invalid MFA data") }
        let now = accounts.objects.clock.now().millisecondsSince1970
        var replacing: String?
        if let current = SecondFactorState(of: user) {
            // Replacing a factor takes a code of the current one (Parse: `old`).
            guard case .string(let old)? = fields["old"], spend(old, state: current, crypto: crypto, now: now) != nil else { throw Self.invalid }
            replacing = current.text
        }
        guard let step = crypto.codes.matchingStep(secret: secret, code: token, atSeconds: now / 1000) else { throw Self.invalid }
        let codes = (0..<Self.recoveryCount).map { _ in crypto.codes.newRecoveryCode() }
        let state = SecondFactorState(
            secret: try crypto.box.seal(secret), step: step, recovery: codes.map { accounts.tokens.digest(Self.normalized($0)) })
        return Enrolment(
            operations: [
                (FieldPath(field: .internal(.secondFactor)), .set(.string(state.text))),
                (FieldPath(field: try FieldName("authData"), subkeys: ["mfa"]), .set(["status": "enabled"])),
            ], response: ["recovery": .array(codes.map(JSON.string))], replacing: replacing)
    }

    /// The writes that remove the factor (the master key only, for now).
    func removal(principal: Principal) throws -> [(FieldPath, FieldOperation)] {
        guard principal.isMaster else {
            throw ParseError(.operationForbidden, "Removing a second factor needs the master key.")
        }
        return [(FieldPath(field: .internal(.secondFactor)), .delete), (FieldPath(field: try FieldName("authData"), subkeys: ["mfa"]), .delete)]
    }

    /// At login, after the password checked out: nothing when `user` has no second factor, else
    /// the code in `authData.mfa.token` (or a recovery code) must be good, and is then spent.
    func check(_ user: StoredObject, authData: JSON?) async throws {
        guard let state = SecondFactorState(of: user) else { return }
        guard let crypto = accounts.secondFactor else { throw Self.invalid }
        guard let mfa = authData?["mfa"], mfa != .null else { throw Self.missing }
        guard case .string(let code)? = mfa["token"], code.utf8.count <= 64 else { throw Self.invalid }
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard state.lockedUntil <= now else { throw Self.invalid }
        let spent = spend(code, state: state, crypto: crypto, now: now)
        var next = spent ?? state
        if spent == nil {
            next.failures += 1
            if next.failures >= accounts.config.secondFactorMaxFailures {
                next.lockedUntil = now + Self.lockMilliseconds
                next.failures = 0
            }
        }
        // Written back only if no one else wrote it since it was read: a code spent on another
        // node (or a failure counted there) makes this attempt fail.
        var write = ObjectWrite()
        write.operations = [(FieldPath(field: .internal(.secondFactor)), .set(.string(next.text)))]
        let unchanged = Access.master.requiring(.internal(.secondFactor), equals: state.text)
        do {
            try await accounts.server.write([
                .update(
                    className: .user, objectId: user.objectId, at: accounts.objects.clock.now(), write: write, access: unchanged,
                    grant: SchemaGrant(createClass: false, addFields: true))
            ])
        } catch let error as ParseError where error.code == .objectNotFound {
            throw Self.invalid
        }
        guard spent != nil else { throw Self.invalid }
    }

    /// The state after spending `code` (a TOTP code of a step later than the last used, or an
    /// unused recovery code); nil when it is neither.
    func spend(_ code: String, state: SecondFactorState, crypto: SecondFactorCrypto, now: Int64) -> SecondFactorState? {
        var next = state
        next.failures = 0
        let digits = code.filter { $0 != " " }
        if digits.utf8.count == 6, let secret = crypto.box.open(state.secret)?.plaintext,
            let step = crypto.codes.matchingStep(secret: secret, code: digits, atSeconds: now / 1000), step > state.step
        {
            next.step = step
            return next
        }
        let digest = accounts.tokens.digest(Self.normalized(code))
        guard let index = state.recovery.firstIndex(where: { ConstantTime.equals($0.utf8, digest.utf8) }) else { return nil }
        next.recovery.remove(at: index)
        return next
    }

    /// A recovery code as typed: case, dashes and spaces don't matter.
    static func normalized(_ code: String) -> String {
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
