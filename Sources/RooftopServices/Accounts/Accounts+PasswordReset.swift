public import RooftopCore
import RooftopMail
public import RooftopStorage

extension Accounts {
    /// `POST /requestPasswordReset`: mails a link to choose a new password. By default the
    /// answer is `{}` whether or not the address belongs to someone.
    public func requestPasswordReset(body: [String: JSON], acceptLanguage: String?) async throws {
        guard let mail else { throw Self.mailNotConfigured }
        guard let value = body["email"] else { throw ParseError(.emailMissing, "you must provide an email") }
        guard case .string(let email) = value, !email.isEmpty else { throw ParseError(.invalidEmailAddress, "you must provide a valid email string") }
        // Parse: the email, or a username when the user has no email (the mail then goes nowhere).
        let key = AccountKey.normalize(email)
        let query = QueryNode.or([
            .field(FieldPath(field: .internal(.emailKey)), .equals(.string(key))),
            .field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key))),
        ])
        let found = try await find(.user, query, limit: 2).first { $0.fields[InternalField.emailKey.rawValue]?.stringValue == key }
        guard let user = found, user.fields["email"] != nil else {
            if config.resetPasswordSuccessOnInvalidEmail { return }
            throw ParseError(.objectNotFound, "A user with that email does not exist.")
        }
        let token = AccountMail.newLinkToken()
        var write = ObjectWrite()
        let expires = objects.clock().millisecondsSince1970 + Int64(config.resetTokenValidityDuration) * 1000
        // A newer link replaces (so kills) any older one.
        write.operations = [
            (FieldPath(field: .internal(.resetToken)), .set(.string(tokens.digest(token)))),
            (FieldPath(field: .internal(.resetTokenExpiresAt)), .set(.number(Double(expires)))),
        ]
        _ = try await objects.store.write([
            .update(
                className: .user, objectId: user.objectId, at: objects.clock(), write: write, access: .master,
                grant: SchemaGrant(createClass: false, addFields: true))
        ])
        await mail.send(
            .passwordReset, to: user, link: mail.link("request_password_reset", token: token), expiresIn: config.resetTokenValidityDuration,
            acceptLanguage: acceptLanguage)
    }

    /// The user a live reset link belongs to, or nil (unknown, used, superseded, expired or
    /// malformed). Reading never consumes the token: a mail scanner's GET changes nothing.
    public func passwordResetUser(token: String) async throws -> StoredObject? {
        guard Self.isLinkTokenShaped(token) else { return nil }
        let query = QueryNode.field(FieldPath(field: .internal(.resetToken)), .equals(.string(tokens.digest(token))))
        guard let user = try await find(.user, query, limit: 1).first,
            let expires = user.fields[InternalField.resetTokenExpiresAt.rawValue]?.numberValue,
            Double(objects.clock().millisecondsSince1970) < expires
        else { return nil }
        return user
    }

    /// What the reset form's POST did.
    public enum ResetOutcome: Sendable, Equatable {
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
    public func resetPassword(token: String, newPassword: String) async throws -> ResetOutcome {
        guard let user = try await passwordResetUser(token: token) else { return .invalid }
        if let problem = try await passwordProblem(newPassword, for: user) { return .rejected(problem) }
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: .internal(.resetToken)), .delete),
            (FieldPath(field: .internal(.resetTokenExpiresAt)), .delete),
        ]
        write.operations += try passwordOperations(hash: try await hasher.hash(newPassword), replacing: user, now: objects.clock())
        if config.lockout?.unlockOnPasswordReset == true { write.operations += Self.unlockOperations }
        var group: [WriteOperation] = [
            .update(
                className: .user, objectId: user.objectId, at: objects.clock(), write: write,
                access: Access.master.requiring(.internal(.resetToken), equals: tokens.digest(token)),
                grant: SchemaGrant(createClass: false, addFields: false))
        ]
        if config.revokeSessionOnPasswordReset {
            group += try await sessionIds(of: user.objectId).map { .delete(className: .session, objectId: $0, access: .master) }
        }
        do {
            _ = try await objects.store.write(group)
        } catch let error as ParseError where error.code == .objectNotFound {
            return .invalid
        }
        await forget(.userSessions(userId: user.objectId))
        await audit.record(.passwordReset, userId: user.objectId)
        return .changed
    }

    /// Only our own alphabet and a sane length ever reach a query.
    static func isLinkTokenShaped(_ token: String) -> Bool {
        (16...128).contains(token.utf8.count) && token.utf8.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) }
    }
}
