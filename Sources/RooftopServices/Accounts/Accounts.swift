package import Logging
package import RooftopCore
import RooftopMail
import RooftopStorage

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
    /// Wrong second-factor codes in a row before codes are refused for 15 minutes (NIST SP
    /// 800-63B allows at most 100).
    package var secondFactorMaxFailures = 10
    /// Whether a sign-in through a provider (`authData`, the browser flow) needs the second
    /// factor's code too (`secondFactorOnProviderSignIn: required`), or the provider's own
    /// sign-in is enough (`provider`). Anonymous sign-ins always need it.
    package var providerSignInNeedsSecondFactor = true
    /// Keys that seal second-factor secrets, newest first (the first seals, all open); the
    /// master key is always the last opener, and the sealer when this is empty.
    package var secondFactorKeys: [String] = []
    /// Which security notices are mailed (when mail is configured).
    package var securityNotifications = SecurityNotificationSettings()
    /// The passkeys' relying party (`passkeys`); off until it has an RP ID.
    package var passkeys = PasskeySettings()

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
    /// The server's lookups of users and sessions.
    let directory: UserDirectory
    /// Password hashing and policy.
    let passwords: Passwords
    /// Failed-login counting and the lock (Parse's `accountLockout`).
    let lockout: LoginLockout
    let tokens: any SessionTokenSource
    package let config: AccountsConfiguration
    /// The `authData` identities: checked with their providers, linked and unlinked.
    let identities: LinkedIdentities
    /// Opening, validating and capping sessions, and the session cache.
    package let sessions: AccountSessions
    /// Mail settings; nil when no email flow is configured (their routes then answer 1).
    let mail: AccountMail?
    /// Where authentication events are recorded.
    package let audit: AuditLog
    /// Reset and verification requests' per-account work, done after the answer.
    let background: BackgroundWork
    /// The device side of sessions: the fields a new one records, `lastUsedAt` kept fresh.
    let devices: SessionDevices
    /// Security notices sent per user this hour, on this node.
    let noticeBudget = NoticeBudget()
    /// The second factor's codes and secret box; nil refuses enrolment.
    let secondFactor: SecondFactorCrypto?
    /// The passkeys' verifier and decoy key; nil turns the passkey routes off (252).
    let passkeyCrypto: PasskeyCrypto?

    /// Whether account mail (and so the pages its links open) is configured.
    package var sendsMail: Bool { mail != nil }

    /// The app's name as mail and hosted pages show it (empty without mail settings).
    package var appName: String { mail?.appName ?? "" }

    /// The language of a hosted page for a visitor's `Accept-Language`.
    package func pageLanguage(acceptLanguage: String?) -> String {
        (mail?.locale ?? LanguageChooser()).choose(userLocale: nil, acceptLanguage: acceptLanguage)
    }

    /// Creates the use cases; `providers` are the enabled `authData` providers besides
    /// `anonymous`, which `config.enableAnonymousUsers` governs. The audit log and the
    /// background work log to `logger` (the server's, so its format and level reach them);
    /// `background` is the server's, which its service group drains before the stores close.
    package init(
        objects: Objects, hasher: any PasswordHasher, tokens: any SessionTokenSource, config: AccountsConfiguration,
        providers: [any AuthProvider] = [], mail: AccountMail? = nil, logger: Logger = Logger(label: "rooftop.accounts"),
        background: BackgroundWork? = nil, secondFactor: SecondFactorCrypto? = nil, passkeys: PasskeyCrypto? = nil
    ) {
        self.mail = mail
        self.secondFactor = secondFactor
        self.passkeyCrypto = passkeys
        let background = background ?? BackgroundWork(limit: 64, logger: logger)
        self.background = background
        let audit = AuditLog(store: objects.store, clock: objects.clock, logger: logger, enabled: config.auditLog)
        self.audit = audit
        self.objects = objects
        let lookup = AsServer(objects: objects)
        let server = AsServer(objects: objects) { error, operations in try await Self.accountError(error, operations, lookup: lookup) }
        self.server = server
        let directory = UserDirectory(server: server)
        self.directory = directory
        let devices = SessionDevices(server: server, background: background, clock: objects.clock)
        self.devices = devices
        self.lockout = LoginLockout(rule: config.lockout, server: server, directory: directory, audit: audit, clock: objects.clock)
        self.passwords = Passwords(hasher: hasher, config: config, mail: mail, clock: objects.clock)
        self.tokens = tokens
        self.config = config
        self.sessions = AccountSessions(
            server: server, tokens: tokens, config: config, directory: directory, devices: devices, audit: audit, clock: objects.clock)
        self.identities = LinkedIdentities(
            providers: AuthProviders(providers + (config.enableAnonymousUsers ? [AnonymousAuthProvider()] : [])), directory: directory, audit: audit)
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

    /// Maps unique-key violations to Parse's account errors (nil: not an account's). The
    /// database reports whichever unique index it checked first; Parse checks the username
    /// before the email, so a clash on both is 202 whatever the database.
    static func accountError(_ error: StorageError, _ operations: [WriteOperation], lookup: AsServer) async throws -> ParseError? {
        switch error.duplicateField {
        case InternalField.usernameKey.rawValue?: return ParseError(.usernameTaken, "Account already exists for this username.")
        case InternalField.emailKey.rawValue?:
            if try await UserDirectory.usernameClashes(operations, lookup: lookup) {
                return ParseError(.usernameTaken, "Account already exists for this username.")
            }
            return ParseError(.emailTaken, "Account already exists for this email address.")
        case let field?? where field.hasPrefix(FieldName.authIdPrefix):
            return ParseError(ParseError.Code.accountAlreadyLinked, "this auth is already used")
        default: return nil
        }
    }

    /// A new session's token for `user`. Spans the layers: the session and its device fields,
    /// replacing the one on the same installation, the audit event `recording` (with `detail`),
    /// the per-user cap, and the new-device notice. `secondFactor` is what proved the second
    /// factor, if one was asked: the session records it (`createdWith.secondFactor`).
    func openSession(
        for user: StoredObject, action: String, provider: String, secondFactor: SecondFactor.Proof? = nil, installationId: String?,
        recording: AuditLog.Event?, detail: String? = nil, origin: RequestOrigin
    ) async throws -> String {
        let token = tokens.newToken()
        let now = objects.clock.now()
        let device = await devices.fields(installationId: installationId, at: now, origin: origin)
        let session = try sessions.insert(
            userId: user.objectId, token: token, action: action, provider: provider, secondFactor: secondFactor?.factor,
            installationId: installationId, at: now, device: device)
        // One session per user and installation: logging in again on a device replaces it.
        var replaced: [WriteOperation] = []
        if let installationId {
            replaced = try await directory.sessionIds(of: user.objectId, installationId: installationId).map {
                AsServer.delete(.session, $0)
            }
        }
        // One transaction: the session, its audit record, the cap on the user's sessions and,
        // unless it is a support session (`/loginAs`) or an upgraded one, the device's record.
        let notices = SecurityNotices(accounts: self, origin: origin)
        let newDevice = provider != "masterkey" && action != "upgrade"
        var group = WriteGroup(replaced + [session])
        if let recording, let entry = try audit.entry(recording, userId: user.objectId, detail: detail, origin: origin) {
            group.operations.append(entry)
        }
        if let trim = try sessions.trim(of: user.objectId, keeping: session.objectId) { group.trims.append(trim) }
        if newDevice { group.exchanges = notices.deviceRecords(of: user.objectId, installationId: installationId) }
        let outcome = try await server.write(group)
        if !replaced.isEmpty { await sessions.forget(.sessions(ids: replaced.map(\.objectId))) }
        await sessions.trimmed(outcome.trimmed.first ?? [], of: user.objectId, origin: origin)
        if newDevice && SecurityNotices.isNewDevice(outcome.previous) { notices.notify(.newDevice(device: device), userId: user.objectId) }
        return token
    }

    /// The caller behind a session token; 209 when it is unknown or expired.
    package func principal(forToken token: String) async throws -> Principal {
        let (userId, _) = try await sessions.validate(token)
        return try await objects.roles.principal(forUser: userId)
    }

    /// The user of a session (`GET /users/me`). `signedIn`, when given, must be the user a
    /// validation of this same token found moments ago: the session is then not checked again.
    package func me(token: String, signedIn: String? = nil) async throws -> StoredObject {
        let userId: String
        if let signedIn { userId = signedIn } else { (userId, _) = try await sessions.validate(token) }
        guard let user = try await directory.user(userId) else { throw AccountSessions.invalidToken }
        return user
    }

    /// Ends a session (`POST /logout`).
    package func logOut(token: String, origin: RequestOrigin) async throws {
        let (userId, sessionId) = try await sessions.validate(token)
        // Delete first, then drop the cache entry: a validation that read the session before the
        // delete cannot cache it afterwards (the removal bumps the cache's generation).
        _ = try? await server.write([AsServer.delete(.session, sessionId)])
        await sessions.forget(.sessionToken(digest: tokens.digest(token)))
        await audit.record(.logout, userId: userId, origin: origin)
        await afterLogoutTrigger(sessionId: sessionId, userId: userId, origin: origin)
    }
}
