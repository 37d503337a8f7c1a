package import RooftopCore
import RooftopStorage

/// Changing and deleting a user (`PUT` and `DELETE /users/:id`): only the user itself or the
/// master key (206 otherwise); a new password is hashed and ends every session (the answer then
/// carries a fresh token); a new email is verified again; `authData` links and unlinks are
/// checked with the providers; the user's triggers run around the write.
package struct UserChanges: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// `PUT /users/:id`: only the user itself (or the master key) may, else 206. A new password
    /// is hashed and ends every session of the user; the answer then carries a fresh token.
    /// `verified` is an identity the browser sign-in already checked (linked as is).
    package func updateUser(
        _ userId: String, body: [String: JSON], principal: Principal, installationId: String?, acceptLanguage: String? = nil,
        verified: VerifiedIdentity? = nil
    ) async throws -> [String: JSON] {
        try checkSelf(userId, principal)
        try AccountInput.refuseDottedAccountKeys(body)
        let original = await accounts.userBeforeWrite(userId, for: .afterSave)
        var fields = try await accounts.beforeUserSave(body, userId: userId, principal: principal, origin: origin)
        // A required field can't be cleared through the account route either.
        try await accounts.server.schema(.user)?.checkFieldOptions(update: fields)
        let username = try Self.takeString(&fields, "username")
        let email = try Self.takeString(&fields, "email")
        let password = try Self.takeString(&fields, "password")
        if let username { try AccountInput.refuseNUL(username, .username) }
        if let email { try AccountInput.refuseNUL(email, .email) }
        if let password { try AccountInput.refuseNUL(password, .password) }
        if fields["emailVerified"] != nil && !principal.isMaster {
            throw ParseError(.operationForbidden, "Clients aren't allowed to manually update email verification.")
        }
        if fields["sessionToken"] != nil { throw ParseError(.operationForbidden, "sessionToken can't be changed this way.") }
        var authData = fields.removeValue(forKey: "authData")
        // Parse's `mfa` entry is a second factor, not a sign-in method.
        var factorOperations: [(FieldPath, FieldOperation)] = []
        var enrolment: SecondFactor.Enrolment?
        // Whether a factor was there to remove (a removal of nothing is not news).
        var removesFactor = false
        if case .object(var entries)? = authData, let mfa = entries.removeValue(forKey: "mfa") {
            let factor = SecondFactor(accounts: accounts, origin: origin)
            if mfa == .null {
                factorOperations = try factor.removal(principal: principal)
                removesFactor = try await accounts.directory.user(userId)?.fields[InternalField.secondFactor.rawValue] != nil
            } else {
                guard let user = try await accounts.directory.user(userId) else { throw ParseError.objectNotFound }
                enrolment = try await factor.enrol(mfa, user: user, principal: principal)
                factorOperations = enrolment?.operations ?? []
            }
            authData = entries.isEmpty ? nil : .object(entries)
        }
        var write = try ObjectWrite(body: fields, isCreate: false)
        write.operations += factorOperations
        // Only a change is news: re-saving a linked provider's data sends no notice.
        var linkedBefore: Set<String> = []
        if authData != nil { linkedBefore = Set(LinkedIdentities.providers(of: try await accounts.directory.user(userId))) }
        if let authData {
            try await accounts.identities.apply(
                authData, to: &write, userId: userId, principal: principal, settingPassword: password != nil, verified: verified, origin: origin)
        }
        if let id = write.objectId, id != userId { throw ParseError(.invalidKeyName, "objectId is an invalid field name.") }
        write.objectId = nil
        if !principal.isMaster {
            // Users can't lock themselves out through their own ACL (Parse force-adds them).
            write.acl = write.acl.map { Accounts.keepingOwner($0, userId) }
            if write.clearsACL { write.acl = ACL(readers: [userId], writers: [userId]) }
        }
        if username?.isEmpty == true { throw ParseError(.usernameMissing, "bad or missing username") }
        if let email, !AccountKey.isPlausibleEmail(email) { throw ParseError(.invalidEmailAddress, "Email address format is invalid.") }
        write.operations += try Accounts.nameOperations(username: username, email: email)
        var operations: [WriteOperation] = []
        var newToken: String?
        let now = accounts.objects.clock.now()
        // The stored user, read once, when a password or email change needs it.
        var current: StoredObject?
        if password != nil || email != nil {
            current = try await accounts.directory.user(userId)
            // A pending reset link dies when the password or the address it was sent to changes.
            write.operations += [(FieldPath(field: .internal(.resetToken)), .delete), (FieldPath(field: .internal(.resetTokenExpiresAt)), .delete)]
        }
        var verifyToken: String?
        if let email, accounts.verifiesEmail(identities: []),
            current?.fields["email"]?.stringValue.map(AccountKey.normalize) != AccountKey.normalize(email)
        {
            // A new address is unverified again, and the old address's link dies with its token.
            let (verification, token) = try accounts.verificationOperations(now: now)
            write.operations += verification
            verifyToken = token
        }
        if let password {
            if let problem = try await accounts.passwords.problem(password, for: current, username: username, email: email) { throw problem.error }
            write.operations += try accounts.passwords.operations(hash: try await accounts.passwords.hash(password), replacing: current, now: now)
            operations += try await accounts.directory.sessionIds(of: userId).map { AsServer.delete(.session, $0) }
            let token = accounts.tokens.newToken()
            operations.append(try accounts.sessions.insert(userId: userId, token: token, action: "login", installationId: installationId, at: now))
            newToken = token
        }
        let schema = try await accounts.server.schema(.user)
        let decision = try AccessPolicy.check(.update, on: .user, clp: schema?.clp ?? .open, principal: principal)
        var access = accounts.objects.writeAccess(decision, principal)
        // Replacing a factor: only the one whose code was checked (a concurrent change fails this).
        if let replacing = enrolment?.replacing { access = access.requiring(.internal(.secondFactor), equals: replacing) }
        let update = WriteOperation.update(
            className: .user, objectId: userId, at: now, write: write, access: access, grant: SchemaGrant(createClass: false, addFields: true))
        let outcomes = try await accounts.server.write([update] + operations)
        if password != nil {
            await accounts.sessions.forget(.userSessions(userId: userId))
            await accounts.audit.record(.passwordChanged, userId: userId, detail: principal.isMaster ? "master key" : nil, origin: origin)
            SecurityNotices(accounts: accounts, origin: origin).notify(.passwordChanged, userId: userId)
        }
        if email != nil {
            await accounts.audit.record(.emailChanged, userId: userId, origin: origin)
            SecurityNotices(accounts: accounts, origin: origin).notify(.emailChanged(old: current?.fields["email"]?.stringValue), userId: userId)
        }
        if enrolment != nil || removesFactor {
            await accounts.audit.record(removesFactor ? .secondFactorRemoved : .secondFactorEnabled, userId: userId, origin: origin)
            SecurityNotices(accounts: accounts, origin: origin).notify(removesFactor ? .secondFactorRemoved : .secondFactorEnabled, userId: userId)
        }
        if case .object(let entries)? = body["authData"] {
            for (provider, data) in entries.sorted(by: { $0.key < $1.key }) where provider != "mfa" {
                await accounts.audit.record(data == .null ? .providerUnlinked : .providerLinked, userId: userId, detail: provider, origin: origin)
                if data == .null, linkedBefore.contains(provider) {
                    SecurityNotices(accounts: accounts, origin: origin).notify(.providerUnlinked(provider), userId: userId)
                }
                if data != .null, !linkedBefore.contains(provider) {
                    SecurityNotices(accounts: accounts, origin: origin).notify(.providerLinked(provider), userId: userId)
                }
            }
        }
        if let verifyToken, let user = try await accounts.directory.user(userId) {
            await accounts.sendVerification(to: user, token: verifyToken, acceptLanguage: acceptLanguage)
        }
        await accounts.afterUserSave(userId, original: original, principal: principal, origin: origin)
        guard let first = outcomes.first else { throw ParseError.internalError }
        var answer = try Objects.response(to: first)
        if let newToken { answer["sessionToken"] = .string(newToken) }
        // The recovery codes, shown this once (Parse: `authDataResponse`).
        if let enrolment { answer["authDataResponse"] = ["mfa": enrolment.response] }
        return answer
    }

    /// `DELETE /users/:id`: the user itself or the master key; its sessions go with it.
    package func deleteUser(_ userId: String, principal: Principal) async throws {
        try checkSelf(userId, principal)
        let schema = try await accounts.server.schema(.user)
        let decision = try AccessPolicy.check(.delete, on: .user, clp: schema?.clp ?? .open, principal: principal)
        try await accounts.objects.beforeDelete(.user, objectId: userId, principal: principal)
        let original = await accounts.userBeforeWrite(userId, for: .afterDelete)
        var operations: [WriteOperation] = [.delete(className: .user, objectId: userId, access: accounts.objects.writeAccess(decision, principal))]
        operations += try await accounts.directory.sessionIds(of: userId).map { AsServer.delete(.session, $0) }
        _ = try await accounts.server.write(operations)
        await accounts.sessions.forget(.userSessions(userId: userId))
        if let original { _ = try? await accounts.objects.runTrigger(.afterDelete, .user, objectId: userId, object: original, principal: principal) }
    }

    /// Parse answers 206 when someone else's user object is changed.
    func checkSelf(_ userId: String, _ principal: Principal) throws(ParseError) {
        guard principal.isMaster || principal.userId == userId else {
            throw ParseError(.sessionMissing, "Cannot modify user \(ClassName.printable(userId)).")
        }
    }

    static func takeString(_ fields: inout [String: JSON], _ key: String) throws(ParseError) -> String? {
        guard let value = fields.removeValue(forKey: key) else { return nil }
        guard case .string(let text) = value else { throw ParseError(.incorrectType, "\(key) must be a string.") }
        return text
    }
}
