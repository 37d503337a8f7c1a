import RooftopCore
import RooftopMail
import RooftopStorage

extension Accounts {
    /// Parse's EMAIL_NOT_FOUND, used for "User email is not verified.".
    static let emailNotVerified = ParseError(.emailNotFound, "User email is not verified.")

    /// Parse answers 1 when an email flow is used without `appName`/`publicServerURL`/adapter.
    static let mailNotConfigured = ParseError(
        .internalServerError, "An appName, publicServerURL, and emailAdapter are required for password reset and email verification functionality.")

    /// Whether a user with an email (and these `authData` providers) must verify it: users who
    /// signed up only through a third-party identity have had their address vouched for.
    func verifiesEmail(identities: [String]) -> Bool {
        config.verifyUserEmails && mail != nil && identities.allSatisfy { $0 == "anonymous" }
    }

    /// `emailVerified = false` and a fresh token (replacing, so killing, any older one).
    func verificationOperations(now: ParseDate) throws -> ([(path: FieldPath, op: FieldOperation)], String) {
        let token = tokens.newLinkToken()
        var operations: [(path: FieldPath, op: FieldOperation)] = [
            (FieldPath(field: try FieldName("emailVerified")), .set(.bool(false))),
            (FieldPath(field: .internal(.emailVerifyToken)), .set(.string(tokens.digest(token)))),
        ]
        if let seconds = config.emailVerifyTokenValidityDuration {
            let expires = now.millisecondsSince1970 + Int64(seconds) * 1000
            operations.append((FieldPath(field: .internal(.emailVerifyTokenExpiresAt)), .set(.number(Double(expires)))))
        } else {
            operations.append((FieldPath(field: .internal(.emailVerifyTokenExpiresAt)), .delete))
        }
        return (operations, token)
    }

    func sendVerification(to user: StoredObject, token: String, acceptLanguage: String?) async {
        guard let mail else { return }
        await mail.send(
            .verifyEmail, to: user, link: mail.link("verify_email", token: token), expiresIn: config.emailVerifyTokenValidityDuration,
            acceptLanguage: acceptLanguage)
    }
}
