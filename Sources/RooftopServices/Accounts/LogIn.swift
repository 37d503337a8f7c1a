package import RooftopCore
import RooftopStorage

/// Logging in with a password (`/login`), checking one without a session (`/verifyPassword`),
/// and the master key's `/loginAs`: the same 101 for every failure, after the same bcrypt
/// work, so neither the answer nor its timing tells whether an account exists.
package struct LogIn: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// Logs in by username (or an email typed into it) or by email; the same 101 for every
    /// failure, after the same bcrypt work, so neither the answer nor its timing tells whether
    /// an account exists.
    package func logIn(params: [String: JSON], installationId: String?) async throws -> (user: StoredObject, sessionToken: String) {
        let (user, proof) = try await checkCredentials(params, secondFactor: true)
        try await accounts.loginTrigger(.beforeLogin, user, origin: origin)
        let token = try await accounts.openSession(
            for: user, action: "login", provider: "password", secondFactor: proof, installationId: installationId, recording: .login,
            detail: proof.map { "password+\($0.factor)" } ?? "password", origin: origin)
        try await accounts.loginTrigger(.afterLogin, user, origin: origin)
        return (user, token)
    }

    /// The user these credentials name; the same 101 for every failure, after the same bcrypt
    /// work. With `secondFactor`, an enrolled user's code is checked (and spent) too, and what
    /// proved it is returned.
    func checkCredentials(_ params: [String: JSON], secondFactor: Bool = false) async throws -> (StoredObject, SecondFactor.Proof?) {
        do {
            return try await verifyCredentials(params, secondFactor: secondFactor)
        } catch let failure as LoginFailure {
            await accounts.audit.record(.loginFailed, userId: failure.userId, reason: failure.reason, origin: origin)
            throw failure.error
        }
    }

    /// A refused login, with what the audit log records about it.
    struct LoginFailure: Error {
        var error: ParseError
        var userId: String?
        var reason: String
    }

    func verifyCredentials(_ params: [String: JSON], secondFactor: Bool) async throws -> (StoredObject, SecondFactor.Proof?) {
        let username = params["username"]
        let email = params["email"]
        guard username != nil || email != nil else { throw ParseError(.usernameMissing, "username/email is required.") }
        guard let passwordValue = params["password"] else { throw ParseError(.passwordMissing, "password is required.") }
        // Refused before any lookup: the answer depends on the input alone, not on the account.
        try AccountInput.refuseNUL(username, .username)
        try AccountInput.refuseNUL(email, .email)
        try AccountInput.refuseNUL(passwordValue, .password)
        let found = try await accounts.directory.user(username: username?.stringValue, email: email?.stringValue)
        // With lockout on, every attempt first takes a numbered ticket (an atomic increment); only
        // tickets up to the threshold are verified, so parallel guesses can't exceed it.
        let lockout = accounts.lockout.rule != nil
        if lockout, let user = found {
            do {
                try await accounts.lockout.takeTicket(user, origin: origin)
            } catch let error as ParseError {
                throw LoginFailure(error: error, userId: user.objectId, reason: "locked")
            }
        }
        let hash = found?.fields[InternalField.hashedPassword.rawValue]?.stringValue ?? accounts.passwords.hasher.dummyHash
        let password = passwordValue.stringValue ?? ""
        let matches = await accounts.passwords.matches(password, hash: hash)
        let passwordMatches = matches && passwordValue.stringValue != nil
        // Everything else that refuses the login is decided first: a code (or a recovery code,
        // which mails the user) is spent only by a login it completes.
        var refusal: LoginFailure?
        // A user whose ACL is {} is master-only and can't log in (Parse).
        let masterOnly = found?.acl.map { $0.readers.isEmpty && $0.writers.isEmpty } ?? false
        if !passwordMatches || found == nil || masterOnly {
            refusal = LoginFailure(
                error: ParseError(.objectNotFound, "Invalid username/password."), userId: found?.objectId,
                reason: found == nil ? "unknown user" : "wrong password")
        } else if let user = found {
            // Only after the password checked out, so these answers tell nothing to a guesser.
            do {
                try accounts.passwords.checkAge(user)
            } catch {
                refusal = LoginFailure(error: error, userId: user.objectId, reason: "password expired")
            }
            if refusal == nil,
                accounts.config.verifyUserEmails && accounts.config.preventLoginWithUnverifiedEmail
                    && user.fields["emailVerified"] != .bool(true)
            {
                refusal = LoginFailure(error: Accounts.emailNotVerified, userId: user.objectId, reason: "email not verified")
            }
        }
        var proof: SecondFactor.Proof?
        var factorRefused = false
        if refusal == nil, secondFactor, let user = found, user.fields[InternalField.secondFactor.rawValue] != nil {
            do {
                proof = try await SecondFactor(accounts: accounts, origin: origin).check(user, authData: params["authData"])
            } catch let error as ParseError {
                refusal = LoginFailure(error: error, userId: user.objectId, reason: "second factor")
                factorRefused = true
            }
        }
        // A wrong code counts towards the lockout as a wrong password does.
        if lockout, let user = found {
            try await accounts.lockout.settleTicket(user, succeeded: passwordMatches && !factorRefused, origin: origin)
        }
        if let refusal { throw refusal }
        guard let user = found else { throw ParseError.internalError }
        return (user, proof)
    }

    /// `POST|GET /login`: the user with its new session token.
    package func logInAnswer(params: [String: JSON], installationId: String?) async throws -> [String: JSON] {
        let (user, token) = try await logIn(params: params, installationId: installationId)
        return Accounts.withToken(user.json, token)
    }

    /// `POST /loginAs`: the user with a new session token.
    package func logInAsAnswer(params: [String: JSON], principal: Principal, installationId: String?) async throws -> [String: JSON] {
        let (user, token) = try await logInAs(params: params, principal: principal, installationId: installationId)
        return Accounts.withToken(user.json, token)
    }

    /// `POST /loginAs` (master key only): a session for any user, for support tools.
    package func logInAs(params: [String: JSON], principal: Principal, installationId: String?) async throws -> (StoredObject, String) {
        guard principal.isMaster else { throw ParseError(.operationForbidden, "master key is required") }
        guard case .string(let userId)? = params["userId"], !userId.isEmpty else {
            throw ParseError(.invalidValue, "userId must not be empty, null, or undefined")
        }
        guard ObjectId.isPlausible(userId), let user = try await accounts.directory.user(userId) else {
            throw ParseError(.objectNotFound, "user not found")
        }
        let token = try await accounts.openSession(
            for: user, action: "login", provider: "masterkey", installationId: installationId, recording: .loginAs, origin: origin)
        return (user, token)
    }

    /// `/verifyPassword`: checks credentials like a login but opens no session; the answer has
    /// neither a token nor `authData`. No second-factor code is asked (as Parse): it opens nothing.
    package func verifyPassword(params: [String: JSON]) async throws -> [String: JSON] {
        let (user, _) = try await checkCredentials(params)
        var body = user.json
        body["authData"] = nil
        return body
    }
}
