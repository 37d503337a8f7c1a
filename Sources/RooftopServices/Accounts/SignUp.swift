import Logging
package import RooftopCore
import RooftopStorage

/// Signing up (`POST /users`): a new user and its first session in one transaction, or, when
/// `authData` names an identity already linked, a login of that user (200). Passwords are
/// hashed first; usernames and emails are unique as logins compare them.
package struct SignUp: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// The outcome of `POST /users`.
    package struct SignUpResult: Sendable {
        /// The user.
        package var user: StoredObject
        /// The new session's token; nil when login waits for a verified email.
        package var sessionToken: String?
        /// False when `authData` named an existing user, who is logged in instead (200).
        package var created: Bool
    }

    /// A new user and its first session, written in one transaction.
    ///
    /// `verified` identities (the browser sign-in's, already checked with the provider) take
    /// the place of `authData`. `principal` is who asks (the master key may set what a client may not).
    package func signUp(
        body: [String: JSON], installationId: String?, acceptLanguage: String? = nil, verified: [VerifiedIdentity]? = nil, principal: Principal
    ) async throws -> SignUpResult {
        try AccountInput.refuseDottedAccountKeys(body)
        var fields = body
        var identities: [(provider: String, id: String, data: JSON)] = []
        // A second factor's code sent with a provider's sign-in (Parse's `mfa` beside it).
        var secondFactor: JSON?
        if let verified {
            identities = verified.map { ($0.provider, $0.subject, AuthProviders.storedData($0)) }
            // The browser sign-in's redemption may carry the code (`authData.mfa`), nothing else.
            secondFactor = fields.removeValue(forKey: "authData")?["mfa"]
        } else if let authData = fields.removeValue(forKey: "authData") {
            guard case .object(var entries) = authData else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
            secondFactor = entries.removeValue(forKey: "mfa")
            for (name, data) in entries.sorted(by: { $0.key < $1.key }) {
                let identity = try await accounts.identities.verify(name, data, origin: origin)
                identities.append((name, identity.subject, AuthProviders.storedData(identity)))
            }
        }
        if !identities.isEmpty {
            if let existing = try await accounts.directory.user(linkedTo: identities) {
                return try await logIn(existing, identities: identities.map(\.provider), installationId: installationId, secondFactor: secondFactor)
            }
            if fields["username"] == nil { fields["username"] = .string(Self.randomUsername()) }
        }
        // A second factor is enrolled by a signed-in user with a first code, not at sign-up.
        if secondFactor != nil { throw ParseError(.scriptFailed, "Invalid MFA data: enrol a second factor after sign-up (PUT /users/<id>).") }
        // Only now: an `authData` that named an existing user was a login (beforeLogin ran).
        fields = try await accounts.beforeUserSave(fields, userId: nil, principal: principal, origin: origin)
        // `/schemas` field options hold for sign-ups as for any create: defaults fill what is
        // left out, and a required field left empty is 142 before anything is written.
        if let schema = try await accounts.server.schema(.user) { fields = try schema.applyingFieldOptions(toCreate: fields) }
        guard case .string(let username)? = fields.removeValue(forKey: "username"), !username.isEmpty else {
            throw ParseError(.usernameMissing, "bad or missing username")
        }
        try AccountInput.refuseNUL(username, .username)
        var email: String?
        if let value = fields.removeValue(forKey: "email"), value != .null {
            try AccountInput.refuseNUL(value, .email)
            guard case .string(let text) = value, AccountKey.isPlausibleEmail(text) else {
                throw ParseError(.invalidEmailAddress, "Email address format is invalid.")
            }
            email = text
        }
        let password: String?
        switch fields.removeValue(forKey: "password") {
        case .string(let text)?:
            try accounts.config.passwordPolicy.check(text, username: username, context: accounts.passwords.contextWords(email: email))
            password = text
        case nil where !identities.isEmpty: password = nil
        default: throw ParseError(.passwordMissing, "password is required")
        }
        if fields["emailVerified"] != nil {
            throw ParseError(.operationForbidden, "Clients aren't allowed to manually update email verification.")
        }
        if fields["sessionToken"] != nil { throw ParseError(.invalidKeyName, "sessionToken is an invalid field name.") }
        var write = try ObjectWrite(body: fields, isCreate: true)
        if write.objectId != nil { throw ParseError(.invalidKeyName, "objectId is an invalid field name.") }
        let userId = accounts.server.newObjectId()
        write.operations += try Accounts.nameOperations(username: username, email: email)
        if let password {
            write.operations += try accounts.passwords.operations(
                hash: try await accounts.passwords.hash(password), replacing: nil, now: accounts.objects.clock.now())
        }
        if !identities.isEmpty {
            var authData: [String: JSON] = [:]
            for identity in identities {
                authData[identity.provider] = identity.data
                write.operations.append((FieldPath(field: AuthProviders.idField(identity.provider)), .set(.string(identity.id))))
            }
            write.operations.append((FieldPath(field: try FieldName("authData")), .set(.object(authData))))
        }
        // A chosen ACL is kept, but the user can always read and write itself.
        write.acl =
            write.acl.map { Accounts.keepingOwner($0, userId) }
            ?? ACL(readers: accounts.config.enforcePrivateUsers ? [userId] : [userId, "*"], writers: [userId])
        let now = accounts.objects.clock.now()
        var verifyToken: String?
        if email != nil, accounts.verifiesEmail(identities: identities.map(\.provider)) {
            let (operations, token) = try accounts.verificationOperations(now: now)
            write.operations += operations
            verifyToken = token
        }
        // With unverified emails kept out, the first session waits for the verification.
        let token: String? = verifyToken != nil && accounts.config.preventLoginWithUnverifiedEmail ? nil : accounts.tokens.newToken()
        let grant = SchemaGrant(createClass: true, addFields: true)
        // One transaction: the user, its audit record and, with a first session, the session and
        // the device's record (the first device is remembered: it is never reported as new).
        var group = WriteGroup([.insert(className: .user, objectId: userId, at: now, write: write, grant: grant)])
        if let entry = try accounts.audit.entry(.signup, userId: userId, detail: identities.first?.provider, origin: origin) {
            group.operations.append(entry)
        }
        if let token {
            group.exchanges = SecurityNotices(accounts: accounts, origin: origin).deviceRecords(of: userId, installationId: installationId)
            group.operations.append(
                try accounts.sessions.insert(
                    userId: userId, token: token, action: identities.isEmpty ? "signup" : "login",
                    provider: identities.first?.provider ?? "password", installationId: installationId, at: now,
                    device: await accounts.devices.fields(installationId: installationId, at: now, origin: origin)))
        }
        let outcomes: [WriteOutcome]
        do {
            outcomes = try await accounts.server.write(group).outcomes
        } catch let error as ParseError where error.code == ParseError.Code.accountAlreadyLinked && !identities.isEmpty {
            // Two first logins with one identity raced: the other one created the user.
            guard let existing = try await accounts.directory.user(linkedTo: identities) else { throw error }
            return try await logIn(existing, identities: identities.map(\.provider), installationId: installationId, secondFactor: secondFactor)
        }
        guard case .inserted(let user)? = outcomes.first else { throw ParseError.internalError }
        await accounts.afterUserSave(user.objectId, original: nil, principal: principal, origin: origin)
        if let verifyToken { await accounts.sendVerification(to: user, token: verifyToken, acceptLanguage: acceptLanguage) }
        if verifyToken != nil && accounts.config.preventSignupWithUnverifiedEmail { throw Accounts.emailNotVerified }
        return SignUpResult(user: user, sessionToken: token, created: true)
    }

    /// A login through `authData` that named an existing user (sign-up answers 200 then).
    /// An enrolled second factor needs its code here too (as Parse asks for `authData.mfa` beside
    /// the provider's), unless `secondFactorOnProviderSignIn` is `provider`: then the provider's
    /// sign-in is enough (never the anonymous one's).
    /// `identities` are the providers sent (the first names the session); any anonymous one
    /// (which matched or not) means the code is needed.
    func logIn(_ user: StoredObject, identities: [String], installationId: String?, secondFactor: JSON? = nil) async throws -> SignUpResult {
        let provider = identities.first ?? "password"
        var proof: SecondFactor.Proof?
        if accounts.config.providerSignInNeedsSecondFactor || identities.contains("anonymous") {
            proof = try await SecondFactor(accounts: accounts, origin: origin).check(user, authData: secondFactor.map { ["mfa": $0] })
        }
        try await accounts.loginTrigger(.beforeLogin, user, origin: origin)
        let token = try await accounts.openSession(
            for: user, action: "login", provider: provider, secondFactor: proof, installationId: installationId, recording: .login,
            detail: proof.map { "\(provider)+\($0.factor)" } ?? provider, origin: origin)
        try await accounts.loginTrigger(.afterLogin, user, origin: origin)
        return SignUpResult(user: user, sessionToken: token, created: false)
    }

    /// A sign-up's answer: 201 with the new user's id, creation time and session (and its
    /// generated username when none was sent), or 200 with the user when `authData` named an
    /// existing one (a login).
    package struct SignUpAnswer: Sendable {
        /// Whether a user was created.
        package var created: Bool
        /// The answer's fields.
        package var body: [String: JSON]
        /// The new user's id.
        package var objectId: String
    }

    /// `POST /users`.
    package func signUpAnswer(
        body: [String: JSON], installationId: String?, acceptLanguage: String?, principal: Principal
    ) async throws -> SignUpAnswer {
        let result = try await signUp(body: body, installationId: installationId, acceptLanguage: acceptLanguage, principal: principal)
        guard result.created else {
            return SignUpAnswer(created: false, body: Accounts.withToken(result.user.json, result.sessionToken), objectId: result.user.objectId)
        }
        var answer: [String: JSON] = ["objectId": .string(result.user.objectId), "createdAt": .string(result.user.createdAt.iso)]
        // No token while login waits for a verified email (Parse).
        answer["sessionToken"] = result.sessionToken.map(JSON.string)
        // Users created through authData learn their generated username.
        if body["username"] == nil { answer["username"] = result.user.fields["username"] }
        return SignUpAnswer(created: true, body: answer, objectId: result.user.objectId)
    }

    /// Parse gives users created through `authData` a random 25-character username.
    static func randomUsername() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<25).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
