import Foundation
package import RooftopCore
import RooftopStorage

/// Rooftop's own second-factor routes, for apps not on a Parse SDK (`/users/me/mfa…`, the
/// signed-in user's session): the server makes the secret and its `otpauth://` URI, a first code
/// confirms it, and disabling the factor or renewing the recovery codes takes a current code or
/// a recovery code, counted against the same limit as a login's.
package struct SecondFactorSetup: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// How long a started enrolment waits for its first code.
    static let pendingLifetime: Int64 = 10 * 60 * 1000
    /// Where a started enrolment waits.
    static let pendingField = FieldPath(field: .internal(.secondFactorPending))

    var factor: SecondFactor { SecondFactor(accounts: accounts, origin: origin) }

    /// `GET /users/me/mfa`: whether the user has a second factor, and how many recovery codes remain.
    package func status(userId: String) async throws -> [String: JSON] {
        let user = try await self.user(userId)
        guard let state = SecondFactorState(of: user) else { return ["enabled": false] }
        return ["enabled": true, "recoveryCodesLeft": .number(Double(state.recovery.count))]
    }

    /// `POST /users/me/mfa/enroll`: a new secret, made here and kept sealed until a first code
    /// confirms it (within 10 minutes). Over an enabled factor, `token` (one of its codes) is
    /// needed, and is spent. The enrolment remembers the factor it was started over (its sealed
    /// secret): only that one (or none) can be replaced by its confirmation.
    package func start(userId: String, body: [String: JSON]) async throws -> [String: JSON] {
        let crypto = try factor.crypto
        let user = try await self.user(userId)
        let secret = crypto.codes.newSecret()
        let sealed = try crypto.box.seal(secret)
        let until = accounts.objects.clock.now().millisecondsSince1970 + Self.pendingLifetime
        let waiting = { (over: String) in
            let pending: JSON = ["secret": .string(sealed), "until": .number(Double(until)), "over": .string(over)]
            return (Self.pendingField, FieldOperation.set(.string(JSONWriter.string(pending, sortedKeys: true))))
        }
        if let state = SecondFactorState(of: user) {
            guard body["token"] != nil else {
                throw ParseError(.scriptFailed, "This account has a second factor: send one of its codes as token to replace it.")
            }
            try await factor.prove(body["token"], user: user, state: state, signingIn: false) { spent in
                [(SecondFactor.stateField, .set(.string(spent.text))), waiting(spent.secret)]
            }
        } else {
            var write = ObjectWrite()
            write.operations = [waiting("")]
            try await accounts.server.write([AsServer.update(.user, userId, at: accounts.objects.clock.now(), write, addFields: true)])
        }
        let encoded = Base32.encode(secret)
        return ["secret": .string(encoded), "uri": .string(uri(secret: encoded, user: user))]
    }

    /// `POST /users/me/mfa/confirm`: the first code of the started enrolment's secret enables it
    /// (replacing the factor there was); the answer carries the ten recovery codes, this once.
    package func confirm(userId: String, body: [String: JSON]) async throws -> [String: JSON] {
        let factor = self.factor
        let crypto = try factor.crypto
        let user = try await self.user(userId)
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard case .string(let pendingText)? = user.fields[InternalField.secondFactorPending.rawValue],
            case .object(let pending)? = try? JSONParser.parse(Array(pendingText.utf8)),
            let until = pending["until"]?.numberValue, Int64(until) > now,
            let sealed = pending["secret"]?.stringValue, let (secret, _) = crypto.box.open(sealed),
            // Started over the factor there is now, known by its sealed secret (or over none): a
            // factor enabled or replaced since voids it.
            pending["over"]?.stringValue == SecondFactorState(of: user)?.secret ?? ""
        else {
            throw ParseError(
                .scriptFailed, "No second factor is being set up (or it took over 10 minutes): start again with POST /users/me/mfa/enroll.")
        }
        guard case .string(let token)? = body["token"], token.utf8.count <= 64,
            let step = crypto.codes.matchingStep(secret: secret, code: token.filter { $0 != " " }, atSeconds: now / 1000)
        else { throw SecondFactor.invalid }
        let (state, codes) = try factor.newState(secret: secret, step: step, crypto: crypto)
        var write = ObjectWrite()
        write.operations = factor.enabling(state)
        // The enrolment confirmed is the one read: two confirmations, or one racing a new start,
        // can't both enable.
        var access = Access.master.requiring(.internal(.secondFactorPending), equals: pendingText)
        if let current = SecondFactorState(of: user) { access = access.requiring(.internal(.secondFactor), equals: current.text) }
        try await factor.writeRequiring(access, write, of: userId)
        await accounts.audit.record(.secondFactorEnabled, userId: userId, detail: "enroll", origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.secondFactorEnabled, userId: userId)
        return ["recovery": .array(codes.map(JSON.string))]
    }

    /// `POST /users/me/mfa/disable`: removes the factor, given one of its codes (or a recovery code).
    package func disable(userId: String, body: [String: JSON]) async throws {
        let user = try await self.user(userId)
        guard let state = SecondFactorState(of: user) else { throw Self.none }
        try await factor.prove(body["token"], user: user, state: state, signingIn: false) { _ in SecondFactor.removalOperations }
        await accounts.audit.record(.secondFactorRemoved, userId: userId, detail: "by the user, with a code", origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.secondFactorRemoved, userId: userId)
    }

    /// `POST /users/me/mfa/recovery`: ten new recovery codes, given a code; the old ones stop working.
    package func renewRecoveryCodes(userId: String, body: [String: JSON]) async throws -> [String: JSON] {
        let crypto = try factor.crypto
        let user = try await self.user(userId)
        guard let state = SecondFactorState(of: user) else { throw Self.none }
        let (codes, digests) = factor.recoveryCodes(crypto)
        try await factor.prove(body["token"], user: user, state: state, signingIn: false) { spent in
            var renewed = spent
            renewed.recovery = digests
            return [(SecondFactor.stateField, .set(.string(renewed.text)))]
        }
        await accounts.audit.record(.secondFactorRecoveryRenewed, userId: userId, origin: origin)
        return ["recovery": .array(codes.map(JSON.string))]
    }

    /// The answer for an account without a second factor.
    static let none = ParseError(.scriptFailed, "This account has no second factor.")

    func user(_ userId: String) async throws -> StoredObject {
        guard let user = try await accounts.directory.user(userId) else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return user
    }

    /// The `otpauth://` URI authenticator apps read from a QR code (Google's Key Uri Format):
    /// the app's name as issuer, and the username (or email) as the account.
    func uri(secret: String, user: StoredObject) -> String {
        let issuer = accounts.appName.isEmpty ? "Rooftop" : accounts.appName
        let account = user.fields["username"]?.stringValue ?? user.fields["email"]?.stringValue ?? user.objectId
        // RFC 3986's unreserved characters, ASCII only: everything else is percent-encoded UTF-8.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")
        let label = "\(issuer):\(account)".addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: ":"))) ?? ""
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(issuerParameter)&algorithm=SHA1&digits=6&period=30"
    }
}
