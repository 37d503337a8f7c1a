import Logging
package import RooftopCore
import RooftopMail
package import RooftopStorage

/// Settings of sign-up, login and sessions (Parse Server's option names).
package struct AccountsConfiguration: Sendable {
    /// Rules for new passwords.
    package var passwordPolicy = PasswordPolicy()
    /// Session lifetime in seconds (Parse: `sessionLength`, one year).
    package var sessionLength = 31_536_000
    /// New users readable by themselves only (Parse 6+ default), else also publicly readable.
    package var enforcePrivateUsers = true
    /// Whether `authData.anonymous` may create and log in users (Parse default: true).
    package var enableAnonymousUsers = true
    /// Whether using a session past half its lifetime renews it (Parse: `extendSessionOnUse`).
    package var extendSessionOnUse = false
    /// Seconds of inactivity after which never-converted anonymous users are deleted; 0 = never.
    package var anonymousUserTTL = 0
    /// Whether new and changed email addresses get a verification link (Parse: `verifyUserEmails`).
    package var verifyUserEmails = false
    /// Whether login waits for a verified email (205); sign-up then answers without a session.
    package var preventLoginWithUnverifiedEmail = false
    /// Whether sign-up itself answers 205 until the email is verified (the user is still created).
    package var preventSignupWithUnverifiedEmail = false
    /// Seconds a verification link works; nil = until used (Parse's default; ours is one day).
    package var emailVerifyTokenValidityDuration: Int? = 86_400
    /// Whether `/verificationEmailRequest` answers `{}` whatever the address (no enumeration).
    package var emailVerifySuccessOnInvalidEmail = true
    /// Seconds a password-reset link works (Parse: `passwordPolicy.resetTokenValidityDuration`).
    package var resetTokenValidityDuration = 3600
    /// Whether `/requestPasswordReset` answers `{}` for unknown addresses too.
    package var resetPasswordSuccessOnInvalidEmail = true
    /// Whether a reset ends every session of the user (Parse: `revokeSessionOnPasswordReset`).
    package var revokeSessionOnPasswordReset = true
    /// Account lockout (Parse: `accountLockout`); nil = off, as in Parse.
    package var lockout: Lockout?
    /// Whether authentication events go to the `_Audit` class.
    package var auditLog = true
    /// Days audit events are kept; 0 = forever.
    package var auditLogRetentionDays = 90
    /// Words no password may be (compared as `PasswordPolicy.problem` says): the server adds the
    /// application id and the app's name (NIST SP 800-63B's context-specific words).
    package var contextWords: [String] = []
    /// Where the browser sign-in may send people back to (`authRedirectURIs`): exact matches,
    /// except that a loopback `http://127.0.0.1/…` or `http://[::1]/…` entry takes any port
    /// (RFC 8252).
    package var authRedirectURIs: [String] = []
    /// Live sessions one user may hold; opening one more ends the oldest (`0` = no cap).
    package var maxSessionsPerUser = 100
    /// Which security notices are mailed (when mail is configured).
    package var securityNotifications = SecurityNotificationSettings()

    /// After `threshold` failed logins the account refuses logins for `duration` seconds.
    package struct Lockout: Sendable {
        /// Failed attempts that lock the account (1–999).
        package var threshold: Int
        /// Seconds the lock lasts.
        package var duration: Int
        /// Whether a password reset through the emailed link unlocks at once.
        package var unlockOnPasswordReset: Bool

        /// Creates a lockout rule.
        package init(threshold: Int, duration: Int, unlockOnPasswordReset: Bool = false) {
            self.threshold = threshold
            self.duration = duration
            self.unlockOnPasswordReset = unlockOnPasswordReset
        }
    }

    /// Creates the defaults.
    package init() {}
}

/// Sign-up, login, current user and logout (`/users`, `/login`, `/users/me`, `/logout`).
///
/// The password is hashed before the write; the hash, the normalized username/email keys and
/// the session token digest are internal document fields that no read path returns.
package struct Accounts: Sendable {
    let objects: Objects
    /// The server's own reads and writes, with the account errors (202, 203, 208) answered first.
    let server: AsServer
    let hasher: any PasswordHasher
    let tokens: any SessionTokenSource
    package let config: AccountsConfiguration
    let providers: AuthProviders
    let cache: SessionCache
    /// Mail settings; nil when no email flow is configured (their routes then answer 1).
    let mail: AccountMail?
    /// Where authentication events are recorded.
    package let audit: AuditLog
    /// Reset and verification requests' per-account work, done after the answer.
    let background: BackgroundWork
    /// When this node last wrote each session's `lastUsedAt`.
    let sessionUse = SessionUse()
    /// Security notices sent per user this hour, on this node.
    let noticeBudget = NoticeBudget()

    /// Whether account mail (and so the pages its links open) is configured.
    package var sendsMail: Bool { mail != nil }

    /// The app's name as mail and hosted pages show it (empty without mail settings).
    package var appName: String { mail?.appName ?? "" }

    /// The language of a hosted page for a visitor's `Accept-Language`.
    package func pageLanguage(acceptLanguage: String?) -> String {
        (mail?.locale ?? MailLocale()).choose(userLocale: nil, acceptLanguage: acceptLanguage)
    }

    /// Creates the use cases; `providers` are the enabled `authData` providers besides
    /// `anonymous`, which `config.enableAnonymousUsers` governs.
    package init(
        objects: Objects, hasher: any PasswordHasher, tokens: any SessionTokenSource, config: AccountsConfiguration,
        providers: [any AuthProvider] = [], mail: AccountMail? = nil
    ) {
        self.mail = mail
        self.cache = SessionCache(now: objects.clock)
        self.background = BackgroundWork(limit: 64, logger: Logger(label: "rooftop.accounts"))
        self.audit = AuditLog(store: objects.store, clock: objects.clock, logger: Logger(label: "rooftop.audit"), enabled: config.auditLog)
        self.objects = objects
        let lookup = AsServer(objects: objects)
        self.server = AsServer(objects: objects) { error, operations in try await Self.accountError(error, operations, lookup: lookup) }
        self.hasher = hasher
        self.tokens = tokens
        self.config = config
        self.providers = AuthProviders(providers + (config.enableAnonymousUsers ? [AnonymousAuthProvider()] : []))
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
    /// the place of `authData`.
    package func signUp(
        body: [String: JSON], installationId: String?, acceptLanguage: String? = nil, verified: [VerifiedIdentity]? = nil
    ) async throws -> SignUpResult {
        try AccountInput.refuseDottedAccountKeys(body)
        let principal = CloudCaller.current.principal
        var fields = body
        var identities: [(provider: String, id: String, data: JSON)] = []
        if let verified {
            identities = verified.map { ($0.provider, $0.subject, AuthProviders.storedData($0)) }
        } else if let authData = fields.removeValue(forKey: "authData") {
            guard case .object(let entries) = authData else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
            for (name, data) in entries.sorted(by: { $0.key < $1.key }) {
                let identity = try await verifiedIdentity(name, data)
                identities.append((name, identity.subject, AuthProviders.storedData(identity)))
            }
        }
        if !identities.isEmpty {
            if let existing = try await findUser(byIdentities: identities) {
                return try await logIn(existing, provider: identities[0].provider, installationId: installationId)
            }
            if fields["username"] == nil { fields["username"] = .string(Self.randomUsername()) }
        }
        // Only now: an `authData` that named an existing user was a login (beforeLogin ran).
        fields = try await beforeUserSave(fields, userId: nil, principal: principal)
        // `/schemas` field options hold for sign-ups as for any create: defaults fill what is
        // left out, and a required field left empty is 142 before anything is written.
        if let schema = try await server.schema(.user) { fields = try schema.applyingFieldOptions(toCreate: fields) }
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
            try config.passwordPolicy.check(text, username: username, context: contextWords(email: email))
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
        let userId = server.newObjectId()
        write.operations += try Self.nameOperations(username: username, email: email)
        if let password {
            write.operations += try passwordOperations(hash: try await hashPassword(password), replacing: nil, now: objects.clock())
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
            write.acl.map { Self.keepingOwner($0, userId) }
            ?? ACL(readers: config.enforcePrivateUsers ? [userId] : [userId, "*"], writers: [userId])
        let now = objects.clock()
        var verifyToken: String?
        if email != nil, verifiesEmail(identities: identities.map(\.provider)) {
            let (operations, token) = try verificationOperations(now: now)
            write.operations += operations
            verifyToken = token
        }
        // With unverified emails kept out, the first session waits for the verification.
        let token: String? = verifyToken != nil && config.preventLoginWithUnverifiedEmail ? nil : tokens.newToken()
        let grant = SchemaGrant(createClass: true, addFields: true)
        var group: [WriteOperation] = [.insert(className: .user, objectId: userId, at: now, write: write, grant: grant)]
        if let token {
            group.append(
                try sessionInsert(
                    userId: userId, token: token, action: identities.isEmpty ? "signup" : "login",
                    provider: identities.first?.provider ?? "password", installationId: installationId, at: now,
                    device: await deviceFields(installationId: installationId, at: now)))
        }
        let outcomes: [WriteOutcome]
        do {
            outcomes = try await server.write(group)
        } catch let error as ParseError where error.code == Self.identityTaken && !identities.isEmpty {
            // Two first logins with one identity raced: the other one created the user.
            guard let existing = try await findUser(byIdentities: identities) else { throw error }
            return try await logIn(existing, provider: identities[0].provider, installationId: installationId)
        }
        guard case .inserted(let user)? = outcomes.first else { throw ParseError.internalError }
        await audit.record(.signup, userId: user.objectId, detail: identities.first?.provider)
        if token != nil { notify(.signedUp(installationId: installationId), userId: user.objectId) }
        await afterUserSave(user.objectId, original: nil, principal: principal)
        if let verifyToken { await sendVerification(to: user, token: verifyToken, acceptLanguage: acceptLanguage) }
        if verifyToken != nil && config.preventSignupWithUnverifiedEmail { throw Self.emailNotVerified }
        return SignUpResult(user: user, sessionToken: token, created: true)
    }

    /// A login through `authData` that named an existing user (sign-up answers 200 then).
    func logIn(_ user: StoredObject, provider: String, installationId: String?) async throws -> SignUpResult {
        try await loginTrigger(.beforeLogin, user)
        let token = try await openSession(for: user, action: "login", provider: provider, installationId: installationId)
        await audit.record(.login, userId: user.objectId, detail: provider)
        try await loginTrigger(.afterLogin, user)
        return SignUpResult(user: user, sessionToken: token, created: false)
    }

    /// `username` and `email` with their normalized, uniquely indexed keys.
    static func nameOperations(username: String?, email: String?) throws(ParseError) -> [(path: FieldPath, op: FieldOperation)] {
        var operations: [(path: FieldPath, op: FieldOperation)] = []
        if let username {
            operations.append((FieldPath(field: try FieldName("username")), .set(.string(username))))
            operations.append((FieldPath(field: .internal(.usernameKey)), .set(.string(AccountKey.normalize(username)))))
        }
        if let email {
            operations.append((FieldPath(field: try FieldName("email")), .set(.string(email))))
            operations.append((FieldPath(field: .internal(.emailKey)), .set(.string(AccountKey.normalize(email)))))
        }
        return operations
    }

    /// `acl` with the user's own read and write added: users can't lock themselves out.
    static func keepingOwner(_ acl: ACL, _ userId: String) -> ACL {
        var acl = acl
        acl.readers.insert(userId)
        acl.writers.insert(userId)
        return acl
    }

    /// Parse's ACCOUNT_ALREADY_LINKED.
    static let identityTaken = ParseError.Code(208)

    /// Maps unique-key violations to Parse's account errors (nil: not an account's). The
    /// database reports whichever unique index it checked first; Parse checks the username
    /// before the email, so a clash on both is 202 whatever the database.
    static func accountError(_ error: StorageError, _ operations: [WriteOperation], lookup: AsServer) async throws -> ParseError? {
        switch error.duplicateField {
        case InternalField.usernameKey.rawValue?: return ParseError(.usernameTaken, "Account already exists for this username.")
        case InternalField.emailKey.rawValue?:
            if try await usernameClashes(operations, lookup: lookup) {
                return ParseError(.usernameTaken, "Account already exists for this username.")
            }
            return ParseError(.emailTaken, "Account already exists for this email address.")
        case let field?? where field.hasPrefix(FieldName.authIdPrefix): return ParseError(identityTaken, "this auth is already used")
        default: return nil
        }
    }

    /// The user linked to any of these identities.
    func findUser(byIdentities identities: [(provider: String, id: String, data: JSON)]) async throws -> StoredObject? {
        let conditions = identities.map { QueryNode.field(FieldPath(field: AuthProviders.idField($0.provider)), .equals(.string($0.id))) }
        let users = try await find(.user, .or(conditions), limit: 2)
        guard users.count <= 1 else { throw ParseError(Self.identityTaken, "this auth is already used") }
        return users.first
    }

    func openSession(for user: StoredObject, action: String, provider: String, installationId: String?) async throws -> String {
        let token = tokens.newToken()
        let now = objects.clock()
        let device = await deviceFields(installationId: installationId, at: now)
        let session = try sessionInsert(
            userId: user.objectId, token: token, action: action, provider: provider, installationId: installationId, at: now, device: device)
        // One session per user and installation: logging in again on a device replaces it.
        var replaced: [WriteOperation] = []
        if let installationId {
            replaced = try await sessionIds(of: user.objectId, installationId: installationId).map {
                AsServer.delete(.session, $0)
            }
        }
        try await server.write(replaced + [session])
        if !replaced.isEmpty { await forget(.sessions(ids: replaced.map(\.objectId))) }
        try await trimSessions(of: user.objectId, keeping: session.objectId)
        // A support session (`/loginAs`) or an upgraded one is no new device of the user's.
        if provider != "masterkey" && action != "upgrade" {
            notify(.signedIn(installationId: installationId, device: device), userId: user.objectId)
        }
        return token
    }

    /// Parse gives users created through `authData` a random 25-character username.
    static func randomUsername() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<25).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// Logs in by username (or an email typed into it) or by email; the same 101 for every
    /// failure, after the same bcrypt work, so neither the answer nor its timing tells whether
    /// an account exists.
    package func logIn(params: [String: JSON], installationId: String?) async throws -> (user: StoredObject, sessionToken: String) {
        let user = try await checkCredentials(params)
        try await loginTrigger(.beforeLogin, user)
        let token = try await openSession(for: user, action: "login", provider: "password", installationId: installationId)
        await audit.record(.login, userId: user.objectId, detail: "password")
        try await loginTrigger(.afterLogin, user)
        return (user, token)
    }

    /// The user these credentials name; the same 101 for every failure, after the same bcrypt
    /// work.
    func checkCredentials(_ params: [String: JSON]) async throws -> StoredObject {
        do {
            return try await verifyCredentials(params)
        } catch let failure as LoginFailure {
            await audit.record(.loginFailed, userId: failure.userId, reason: failure.reason)
            throw failure.error
        }
    }

    /// A refused login, with what the audit log records about it.
    struct LoginFailure: Error {
        var error: ParseError
        var userId: String?
        var reason: String
    }

    func verifyCredentials(_ params: [String: JSON]) async throws -> StoredObject {
        let username = params["username"]
        let email = params["email"]
        guard username != nil || email != nil else { throw ParseError(.usernameMissing, "username/email is required.") }
        guard let passwordValue = params["password"] else { throw ParseError(.passwordMissing, "password is required.") }
        // Refused before any lookup: the answer depends on the input alone, not on the account.
        try AccountInput.refuseNUL(username, .username)
        try AccountInput.refuseNUL(email, .email)
        try AccountInput.refuseNUL(passwordValue, .password)
        let invalid = ParseError(.objectNotFound, "Invalid username/password.")
        var candidates: [QueryNode] = []
        if case .string(let name)? = username {
            let key = AccountKey.normalize(name)
            candidates.append(.field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key))))
            if name.contains("@") { candidates.append(.field(FieldPath(field: .internal(.emailKey)), .equals(.string(key)))) }
        }
        if case .string(let address)? = email {
            candidates.append(.field(FieldPath(field: .internal(.emailKey)), .equals(.string(AccountKey.normalize(address)))))
        }
        var found: StoredObject?
        if !candidates.isEmpty { found = try await find(.user, .or(candidates), limit: 1).first }
        // With lockout on, every attempt first takes a numbered ticket (an atomic increment); only
        // tickets up to the threshold are verified, so parallel guesses can't exceed it.
        if let user = found {
            do {
                try await takeLoginTicket(user)
            } catch let error as ParseError {
                throw LoginFailure(error: error, userId: user.objectId, reason: "locked")
            }
        }
        let hash = found?.fields[InternalField.hashedPassword.rawValue]?.stringValue ?? hasher.dummyHash
        let password = passwordValue.stringValue ?? ""
        let matches = await passwordMatches(password, hash: hash)
        if let user = found { try await settleLoginTicket(user, succeeded: matches && passwordValue.stringValue != nil) }
        // A user whose ACL is {} is master-only and can't log in (Parse).
        guard matches, passwordValue.stringValue != nil, let user = found, user.acl.map({ !$0.readers.isEmpty || !$0.writers.isEmpty }) ?? true else {
            throw LoginFailure(error: invalid, userId: found?.objectId, reason: found == nil ? "unknown user" : "wrong password")
        }
        // Only after the password checked out, so these answers tell nothing to a guesser.
        do {
            try checkPasswordAge(user)
        } catch {
            throw LoginFailure(error: error, userId: user.objectId, reason: "password expired")
        }
        if config.verifyUserEmails && config.preventLoginWithUnverifiedEmail && user.fields["emailVerified"] != .bool(true) {
            throw LoginFailure(error: Self.emailNotVerified, userId: user.objectId, reason: "email not verified")
        }
        return user
    }

    /// The caller behind a session token; 209 when it is unknown or expired.
    package func principal(forToken token: String) async throws -> Principal {
        let (userId, _) = try await validate(token)
        return try await objects.roles.principal(forUser: userId)
    }

    /// The user of a session (`GET /users/me`). `signedIn`, when given, must be the user a
    /// validation of this same token found moments ago: the session is then not checked again.
    package func me(token: String, signedIn: String? = nil) async throws -> StoredObject {
        let userId: String
        if let signedIn { userId = signedIn } else { (userId, _) = try await validate(token) }
        guard let user = try await user(userId) else { throw Self.invalidToken }
        return user
    }

    /// Ends a session (`POST /logout`).
    package func logOut(token: String) async throws {
        let (userId, sessionId) = try await validate(token)
        // Delete first, then drop the cache entry: a validation that read the session before the
        // delete cannot cache it afterwards (the removal bumps the cache's generation).
        _ = try? await server.write([AsServer.delete(.session, sessionId)])
        await forget(.sessionToken(digest: tokens.digest(token)))
        await audit.record(.logout, userId: userId)
        await afterLogoutTrigger(sessionId: sessionId, userId: userId)
    }

    static let invalidToken = ParseError(.invalidSessionToken, "Invalid session token")

    /// Objects of `className` matching `query`, read with the server's own (master) access: the
    /// account use cases see internal fields that no client read can.
    func find(_ className: ClassName, _ query: QueryNode, limit: Int = 100) async throws -> [StoredObject] {
        try await server.find(className, query, limit: limit)
    }

    /// (userId, sessionId) of a live session.
    func validate(_ token: String) async throws -> (String, String) {
        let digest = tokens.digest(token)
        // Without the other nodes' invalidations, the cache can't be trusted: read every time.
        let live = server.store.cacheBus.isLive
        let (hit, generation) = await cache.lookup(digest)
        if live, let hit {
            touch(hit.sessionId)
            return (hit.userId, hit.sessionId)
        }
        let query = QueryNode.field(FieldPath(field: .internal(.sessionToken)), .equals(.string(digest)))
        guard let session = try await find(.session, query, limit: 1).first,
            let userId = session.fields["user"]?["objectId"]?.stringValue,
            let expires = session.fields["expiresAt"]?["iso"]?.stringValue.flatMap(ParseDate.init(iso:))
        else { throw Self.invalidToken }
        let now = objects.clock()
        var remaining = expires.millisecondsSince1970 - now.millisecondsSince1970
        guard remaining > 0 else { throw Self.invalidToken }
        let length = Int64(config.sessionLength) * 1000
        if config.extendSessionOnUse && remaining < length / 2 {
            // Sliding expiry, at most once per half lifetime so a busy session isn't rewritten on
            // every request.
            let renewed = ParseDate(millisecondsSince1970: now.millisecondsSince1970 + length)
            var write = ObjectWrite()
            write.operations = [(FieldPath(field: try FieldName("expiresAt")), .set(["__type": "Date", "iso": .string(renewed.iso)]))]
            _ = try? await server.write([
                AsServer.update(.session, session.objectId, at: now, write, addFields: false)
            ])
            remaining = length
        }
        if live { await cache.put(digest, userId: userId, sessionId: session.objectId, expiresIn: .milliseconds(remaining), readAt: generation) }
        touch(session.objectId)
        return (userId, session.objectId)
    }

    func sessionInsert(
        userId: String, token: String, action: String, provider: String = "password", installationId: String?, at now: ParseDate,
        device: [String: JSON] = [:]
    ) throws -> WriteOperation {
        let expires = ParseDate(millisecondsSince1970: now.millisecondsSince1970 + Int64(config.sessionLength) * 1000)
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: try FieldName("user")), .set(ObjectRef(className: .user, objectId: userId).pointerJSON)),
            (FieldPath(field: try FieldName("createdWith")), .set(["action": .string(action), "authProvider": .string(provider)])),
            (FieldPath(field: try FieldName("expiresAt")), .set(["__type": "Date", "iso": .string(expires.iso)])),
            (FieldPath(field: .internal(.sessionToken)), .set(.string(tokens.digest(token)))),
        ]
        if let installationId { write.operations.append((FieldPath(field: try FieldName("installationId")), .set(.string(installationId)))) }
        for (key, value) in device.sorted(by: { $0.key < $1.key }) { write.operations.append((FieldPath(field: try FieldName(key)), .set(value))) }
        write.acl = ACL(readers: [userId], writers: [userId])
        let id = server.newObjectId()
        sessionUse.opened(id, now: now.millisecondsSince1970)
        return .insert(className: .session, objectId: id, at: now, write: write, grant: SchemaGrant(createClass: true, addFields: true))
    }
}
