package import RooftopCore
import RooftopMail
import RooftopStorage

/// Password reset by mail (`/requestPasswordReset`, the hosted reset form): a single-use link
/// token, stored as its digest and consumed by one conditional update, the answer given before
/// any per-account work so a known address is no slower than an unknown one.
package struct PasswordReset: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// `POST /requestPasswordReset`: mails a link to choose a new password. By default the
    /// answer is `{}` whether or not the address belongs to someone, and it is given before
    /// any per-account work (the lookup, the token write, the mail), which runs afterwards in
    /// `background`: a known address is no slower to answer than an unknown one.
    /// `alwaysInBackground` (the hosted form) answers the same for every address whatever
    /// `resetPasswordSuccessOnInvalidEmail` says.
    package func requestPasswordReset(body: [String: JSON], acceptLanguage: String?, alwaysInBackground: Bool = false) async throws {
        guard accounts.mail != nil else { throw Accounts.mailNotConfigured }
        guard let value = body["email"] else { throw ParseError(.emailMissing, "you must provide an email") }
        guard case .string(let email) = value, !email.isEmpty else { throw ParseError(.invalidEmailAddress, "you must provide a valid email string") }
        try AccountInput.refuseNUL(email, .email)
        guard email.utf8.count <= 254 else { throw ParseError(.invalidEmailAddress, "you must provide a valid email string") }
        if accounts.config.resetPasswordSuccessOnInvalidEmail || alwaysInBackground {
            // The trigger runs with the rest, after the answer: a refusal sends no mail but
            // cannot show in an answer that must not tell known addresses from unknown ones.
            accounts.background.start("password reset") {
                guard case let (user, address)? = try await passwordResetCandidate(email) else { return }
                try await accounts.loginTrigger(.beforePasswordResetRequest, user, origin: origin)
                try await issuePasswordReset(for: user, acceptLanguage: acceptLanguage, to: address)
            }
            return
        }
        // The operator chose to tell unknown addresses apart: only the lookup is waited for.
        guard case let (user, address)? = try await passwordResetCandidate(email) else {
            throw ParseError(.objectNotFound, "A user with that email does not exist.")
        }
        try await accounts.loginTrigger(.beforePasswordResetRequest, user, origin: origin)
        accounts.background.start("password reset") { try await issuePasswordReset(for: user, acceptLanguage: acceptLanguage, to: address) }
    }

    /// The user a reset request for `email` names, if it has an email to send to. Parse: the
    /// email, or a username when the user has no email (the mail then goes nowhere). An address
    /// an account had until less than a day ago names that account, and the link goes to it
    /// (`previousOwner`); the address is nil when the link goes to the user's own email.
    func passwordResetCandidate(_ email: String) async throws -> (StoredObject, String?)? {
        let key = AccountKey.normalize(email)
        let query = QueryNode.or([
            .field(FieldPath(field: .internal(.emailKey)), .equals(.string(key))),
            .field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key))),
        ])
        let found = try await accounts.directory.find(.user, query, limit: 2).first { $0.fields[InternalField.emailKey.rawValue]?.stringValue == key }
        if found == nil, let previous = try await SecurityNotices(accounts: accounts, origin: origin).previousOwner(of: email) {
            return (previous.user, previous.address)
        }
        guard let user = found, user.fields["email"] != nil else { return nil }
        return (user, nil)
    }

    /// Stores a fresh reset token (a newer link replaces, so kills, any older one) and mails
    /// its link.
    func issuePasswordReset(for user: StoredObject, acceptLanguage: String?, to address: String? = nil) async throws {
        guard let mail = accounts.mail else { return }
        let token = accounts.tokens.newLinkToken()
        var write = ObjectWrite()
        let expires = accounts.objects.clock.now().millisecondsSince1970 + Int64(accounts.config.resetTokenValidityDuration) * 1000
        write.operations = [
            (FieldPath(field: .internal(.resetToken)), .set(.string(accounts.tokens.digest(token)))),
            (FieldPath(field: .internal(.resetTokenExpiresAt)), .set(.number(Double(expires)))),
        ]
        try await accounts.server.write([
            AsServer.update(.user, user.objectId, at: accounts.objects.clock.now(), write)
        ])
        await mail.send(
            .passwordReset, to: user, address: address, link: mail.link("request_password_reset", token: token),
            expiresIn: accounts.config.resetTokenValidityDuration, acceptLanguage: acceptLanguage)
    }

    /// Waits until the reset and verification requests' work done after their answers is
    /// finished (for an orderly shutdown and for tests).
    package func finishBackgroundWork() async {
        await accounts.background.idle()
    }

    /// The user a live reset link belongs to, or nil (unknown, used, superseded, expired or
    /// malformed). Reading never consumes the token: a mail scanner's GET changes nothing.
    package func passwordResetUser(token: String) async throws -> StoredObject? {
        guard AccountMail.isLinkTokenShaped(token) else { return nil }
        let query = QueryNode.field(FieldPath(field: .internal(.resetToken)), .equals(.string(accounts.tokens.digest(token))))
        guard let user = try await accounts.directory.find(.user, query, limit: 1).first,
            let expires = user.fields[InternalField.resetTokenExpiresAt.rawValue]?.numberValue,
            Double(accounts.objects.clock.now().millisecondsSince1970) < expires
        else { return nil }
        return user
    }

    /// What the reset form's POST did.
    package enum ResetOutcome: Sendable, Equatable {
        /// The password changed; sessions were ended (by default).
        case changed
        /// The new password breaks the policy: the form is shown again saying why, and the link
        /// still works.
        case rejected(PasswordPolicy.Problem)
        /// The link is not (or no longer) valid.
        case invalid
    }

    /// Sets a new password through a reset link: the token is consumed by the same conditional
    /// update that stores the new hash, so of many concurrent posts exactly one changes it.
    package func resetPassword(token: String, newPassword: String) async throws -> ResetOutcome {
        guard let user = try await passwordResetUser(token: token) else { return .invalid }
        if let problem = try await accounts.passwords.problem(newPassword, for: user) { return .rejected(problem) }
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: .internal(.resetToken)), .delete),
            (FieldPath(field: .internal(.resetTokenExpiresAt)), .delete),
        ]
        write.operations += try accounts.passwords.operations(
            hash: try await accounts.passwords.hash(newPassword), replacing: user, now: accounts.objects.clock.now())
        if accounts.config.lockout?.unlockOnPasswordReset == true { write.operations += LoginLockout.unlockOperations }
        // Consumed by one conditional update. The first change after sign-up adds
        // `_password_history` (with `maxPasswordHistory`) and a lockout's fields: the server's own.
        let unspent = Access.master.requiring(.internal(.resetToken), equals: accounts.tokens.digest(token))
        var group = [AsServer.update(.user, user.objectId, at: accounts.objects.clock.now(), write, access: unspent)]
        if accounts.config.revokeSessionOnPasswordReset {
            group += try await accounts.directory.sessionIds(of: user.objectId).map { AsServer.delete(.session, $0) }
        }
        do {
            try await accounts.server.write(group)
        } catch let error as ParseError where error.code == .objectNotFound {
            return .invalid
        }
        await accounts.sessions.forget(.userSessions(userId: user.objectId))
        await accounts.audit.record(.passwordReset, userId: user.objectId, origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.passwordChanged, userId: user.objectId)
        return .changed
    }

    /// The username a valid reset token belongs to (shown on the reset form), nil for an
    /// invalid or expired token.
    package func passwordResetUsername(token: String) async throws -> String? {
        guard let user = try await passwordResetUser(token: token) else { return nil }
        return user.fields["username"]?.stringValue ?? ""
    }
}
