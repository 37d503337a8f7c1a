package import RooftopCore
import RooftopMail
import RooftopStorage

/// Email verification's requests: `/verificationEmailRequest`, the link's page and its resend
/// form. The token is single-use, stored as its digest, consumed by one conditional update; by
/// default every request answers alike whether or not the address is known.
package struct EmailVerification: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// `POST /verificationEmailRequest`: a new link for an unverified address. By default the
    /// answer is `{}` whether the address is unknown, unverified or verified.
    package func requestVerificationEmail(body: [String: JSON], acceptLanguage: String?) async throws {
        guard accounts.config.verifyUserEmails, accounts.mail != nil else { throw Accounts.mailNotConfigured }
        guard let value = body["email"] else { throw ParseError(.emailMissing, "you must provide an email") }
        guard case .string(let email) = value, AccountKey.isPlausibleEmail(email) else {
            throw ParseError(.invalidEmailAddress, "you must provide a valid email string")
        }
        try AccountInput.refuseNUL(email, .email)
        if accounts.config.emailVerifySuccessOnInvalidEmail {
            // As `requestPasswordReset`: the answer comes before any per-account work.
            accounts.background.start("verification email") {
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
        accounts.background.start("verification email") { try await issueVerification(for: user, acceptLanguage: acceptLanguage) }
    }

    /// The user with this email address.
    func verificationCandidate(_ email: String) async throws -> StoredObject? {
        let query = QueryNode.field(FieldPath(field: .internal(.emailKey)), .equals(.string(AccountKey.normalize(email))))
        return try await accounts.directory.find(.user, query, limit: 1).first
    }

    /// Replaces the user's verification token and mails the new link.
    func issueVerification(for user: StoredObject, acceptLanguage: String?) async throws {
        var write = ObjectWrite()
        let (operations, token) = try accounts.verificationOperations(now: accounts.objects.clock.now())
        write.operations = operations
        try await accounts.server.write([
            AsServer.update(.user, user.objectId, at: accounts.objects.clock.now(), write)
        ])
        await accounts.sendVerification(to: user, token: token, acceptLanguage: acceptLanguage)
    }

    /// What following a verification link did.
    package enum VerificationOutcome: Sendable, Equatable {
        /// The address is verified — by this click, or by an earlier click of the same link (a
        /// mail scanner, a double tap) while it was the user's last link; the user's username,
        /// for the page.
        case verified(username: String)
        /// The link is right but too old; a new one can be sent.
        case expired
        /// Unknown, used, superseded or malformed.
        case invalid
    }

    /// Consumes a verification token: one conditional update, so of many concurrent clicks
    /// exactly one verifies. The token's digest stays with the user, marked consumed (no link
    /// can use it again): a later or racing click of the same link, while the address is still
    /// verified and no newer link was issued, sees the success page as Parse Server shows it;
    /// any other token is invalid.
    package func verifyEmail(token: String) async throws -> VerificationOutcome {
        guard let user = try await user(byVerificationToken: token) else { return try await consumedOutcome(token) }
        if let expires = user.fields[InternalField.emailVerifyTokenExpiresAt.rawValue]?.numberValue,
            Double(accounts.objects.clock.now().millisecondsSince1970) >= expires
        {
            return .expired
        }
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: try FieldName("emailVerified")), .set(.bool(true))),
            (FieldPath(field: .internal(.emailVerifyToken)), .set(.string(Self.consumed(accounts.tokens.digest(token))))),
            (FieldPath(field: .internal(.emailVerifyTokenExpiresAt)), .delete),
        ]
        do {
            // Consumed by one conditional update: a replayed or racing link finds it gone (101).
            let unverified = Access.master.requiring(.internal(.emailVerifyToken), equals: accounts.tokens.digest(token))
            try await accounts.server.write([
                AsServer.update(.user, user.objectId, at: accounts.objects.clock.now(), write, access: unverified, addFields: false)
            ])
        } catch let error as ParseError where error.code == .objectNotFound {
            return try await consumedOutcome(token)
        }
        await accounts.audit.record(.emailVerified, userId: user.objectId, origin: origin)
        return .verified(username: user.fields["username"]?.stringValue ?? "")
    }

    /// What a token that no longer verifies answers: success when it is the consumed token of a
    /// user whose address is verified, else invalid.
    func consumedOutcome(_ token: String) async throws -> VerificationOutcome {
        guard AccountMail.isLinkTokenShaped(token) else { return .invalid }
        let query = QueryNode.field(
            FieldPath(field: .internal(.emailVerifyToken)), .equals(.string(Self.consumed(accounts.tokens.digest(token)))))
        guard let user = try await accounts.directory.find(.user, query, limit: 1).first, user.fields["emailVerified"] == .bool(true) else {
            return .invalid
        }
        return .verified(username: user.fields["username"]?.stringValue ?? "")
    }

    /// The stored form of a used token's digest: never equal to a digest, so never consumable.
    static func consumed(_ digest: String) -> String { "consumed:" + digest }

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
        let query = QueryNode.field(FieldPath(field: .internal(.emailVerifyToken)), .equals(.string(accounts.tokens.digest(token))))
        return try await accounts.directory.find(.user, query, limit: 1).first
    }
}
