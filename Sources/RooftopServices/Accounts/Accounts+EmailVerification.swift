package import RooftopCore
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
        let token = AccountMail.newLinkToken()
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

    /// `POST /verificationEmailRequest`: a new link for an unverified address. By default the
    /// answer is `{}` whether the address is unknown, unverified or verified.
    package func requestVerificationEmail(body: [String: JSON], acceptLanguage: String?) async throws {
        guard config.verifyUserEmails, mail != nil else { throw Self.mailNotConfigured }
        guard let value = body["email"] else { throw ParseError(.emailMissing, "you must provide an email") }
        guard case .string(let email) = value, AccountKey.isPlausibleEmail(email) else {
            throw ParseError(.invalidEmailAddress, "you must provide a valid email string")
        }
        try AccountInput.refuseNUL(email, .email)
        if config.emailVerifySuccessOnInvalidEmail {
            // As `requestPasswordReset`: the answer comes before any per-account work.
            background.start("verification email") {
                if let user = try await verificationCandidate(email), user.fields["emailVerified"] != .bool(true) {
                    try await issueVerification(for: user, acceptLanguage: acceptLanguage)
                }
            }
            return
        }
        guard let user = try await verificationCandidate(email) else {
            throw ParseError(.emailNotFound, "No user found with email \(email).")
        }
        guard user.fields["emailVerified"] != .bool(true) else { throw ParseError(.otherCause, "Email \(email) is already verified.") }
        background.start("verification email") { try await issueVerification(for: user, acceptLanguage: acceptLanguage) }
    }

    /// The user with this email address.
    func verificationCandidate(_ email: String) async throws -> StoredObject? {
        let query = QueryNode.field(FieldPath(field: .internal(.emailKey)), .equals(.string(AccountKey.normalize(email))))
        return try await find(.user, query, limit: 1).first
    }

    /// Replaces the user's verification token and mails the new link.
    func issueVerification(for user: StoredObject, acceptLanguage: String?) async throws {
        var write = ObjectWrite()
        let (operations, token) = try verificationOperations(now: objects.clock())
        write.operations = operations
        try await server.write([
            AsServer.update(.user, user.objectId, at: objects.clock(), write)
        ])
        await sendVerification(to: user, token: token, acceptLanguage: acceptLanguage)
    }

    /// What following a verification link did.
    package enum VerificationOutcome: Sendable, Equatable {
        /// The address is now verified; the user's username, for the page.
        case verified(username: String)
        /// The link is right but too old; a new one can be sent.
        case expired
        /// Unknown, used, superseded or malformed.
        case invalid
    }

    /// Consumes a verification token: one conditional update, so of many concurrent clicks
    /// exactly one verifies and the rest see an invalid link.
    package func verifyEmail(token: String) async throws -> VerificationOutcome {
        guard let user = try await user(byVerificationToken: token) else { return .invalid }
        if let expires = user.fields[InternalField.emailVerifyTokenExpiresAt.rawValue]?.numberValue,
            Double(objects.clock().millisecondsSince1970) >= expires
        {
            return .expired
        }
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: try FieldName("emailVerified")), .set(.bool(true))),
            (FieldPath(field: .internal(.emailVerifyToken)), .delete),
            (FieldPath(field: .internal(.emailVerifyTokenExpiresAt)), .delete),
        ]
        do {
            // Consumed by one conditional update: a replayed or racing link finds it gone (101).
            let unverified = Access.master.requiring(.internal(.emailVerifyToken), equals: tokens.digest(token))
            try await server.write([AsServer.update(.user, user.objectId, at: objects.clock(), write, access: unverified, addFields: false)])
        } catch let error as ParseError where error.code == .objectNotFound {
            return .invalid
        }
        await audit.record(.emailVerified, userId: user.objectId)
        return .verified(username: user.fields["username"]?.stringValue ?? "")
    }

    /// "Send a new link" from an expired link's page: only for the user that link belonged to.
    package func resendVerification(token: String, acceptLanguage: String?) async throws -> Bool {
        guard let user = try await user(byVerificationToken: token), user.fields["emailVerified"] != .bool(true) else { return false }
        try await issueVerification(for: user, acceptLanguage: acceptLanguage)
        return true
    }

    /// The user holding this verification token (shape-checked first: only our own alphabet
    /// and length ever reach the query).
    func user(byVerificationToken token: String) async throws -> StoredObject? {
        guard AccountMail.isLinkTokenShaped(token) else { return nil }
        let query = QueryNode.field(FieldPath(field: .internal(.emailVerifyToken)), .equals(.string(tokens.digest(token))))
        return try await find(.user, query, limit: 1).first
    }
}
