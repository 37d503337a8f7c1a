package import RooftopCore
import RooftopStorage

extension Accounts {
    /// `PUT /users/:id`: only the user itself (or the master key) may, else 206. A new password
    /// is hashed and ends every session of the user; the answer then carries a fresh token.
    /// `verified` is an identity the browser sign-in already checked (linked as is).
    package func updateUser(
        _ userId: String, body: [String: JSON], principal: Principal, installationId: String?, acceptLanguage: String? = nil,
        verified: VerifiedIdentity? = nil
    ) async throws -> [String: JSON] {
        try checkSelf(userId, principal)
        try AccountInput.refuseDottedAccountKeys(body)
        let original = await userBeforeWrite(userId, for: .afterSave)
        var fields = try await beforeUserSave(body, userId: userId, principal: principal)
        // A required field can't be cleared through the account route either.
        try await server.schema(.user)?.checkFieldOptions(update: fields)
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
        let authData = fields.removeValue(forKey: "authData")
        var write = try ObjectWrite(body: fields, isCreate: false)
        // Only a change is news: re-saving a linked provider's data sends no notice.
        var linkedBefore: Set<String> = []
        if authData != nil { linkedBefore = Set(Self.linkedProviders(try await user(userId))) }
        if let authData {
            try await applyAuthData(
                authData, to: &write, userId: userId, principal: principal, settingPassword: password != nil, verified: verified)
        }
        if let id = write.objectId, id != userId { throw ParseError(.invalidKeyName, "objectId is an invalid field name.") }
        write.objectId = nil
        if !principal.isMaster {
            // Users can't lock themselves out through their own ACL (Parse force-adds them).
            write.acl = write.acl.map { Self.keepingOwner($0, userId) }
            if write.clearsACL { write.acl = ACL(readers: [userId], writers: [userId]) }
        }
        if username?.isEmpty == true { throw ParseError(.usernameMissing, "bad or missing username") }
        if let email, !AccountKey.isPlausibleEmail(email) { throw ParseError(.invalidEmailAddress, "Email address format is invalid.") }
        write.operations += try Self.nameOperations(username: username, email: email)
        var operations: [WriteOperation] = []
        var newToken: String?
        let now = objects.clock()
        // The stored user, read once, when a password or email change needs it.
        var current: StoredObject?
        if password != nil || email != nil {
            current = try await user(userId)
            // A pending reset link dies when the password or the address it was sent to changes.
            write.operations += [(FieldPath(field: .internal(.resetToken)), .delete), (FieldPath(field: .internal(.resetTokenExpiresAt)), .delete)]
        }
        var verifyToken: String?
        if let email, verifiesEmail(identities: []), current?.fields["email"]?.stringValue.map(AccountKey.normalize) != AccountKey.normalize(email) {
            // A new address is unverified again, and the old address's link dies with its token.
            let (verification, token) = try verificationOperations(now: now)
            write.operations += verification
            verifyToken = token
        }
        if let password {
            if let problem = try await passwordProblem(password, for: current, username: username, email: email) { throw problem.error }
            write.operations += try passwordOperations(hash: try await hashPassword(password), replacing: current, now: now)
            operations += try await sessionIds(of: userId).map { AsServer.delete(.session, $0) }
            let token = tokens.newToken()
            operations.append(try sessionInsert(userId: userId, token: token, action: "login", installationId: installationId, at: now))
            newToken = token
        }
        let schema = try await server.schema(.user)
        let decision = try AccessPolicy.check(.update, on: .user, clp: schema?.clp ?? .open, principal: principal)
        let update = WriteOperation.update(
            className: .user, objectId: userId, at: now, write: write, access: objects.writeAccess(decision, principal),
            grant: SchemaGrant(createClass: false, addFields: true))
        let outcomes = try await server.write([update] + operations)
        if password != nil {
            await forget(.userSessions(userId: userId))
            await audit.record(.passwordChanged, userId: userId, detail: principal.isMaster ? "master key" : nil)
            notify(.passwordChanged, userId: userId)
        }
        if email != nil {
            await audit.record(.emailChanged, userId: userId)
            notify(.emailChanged(old: current?.fields["email"]?.stringValue), userId: userId)
        }
        if case .object(let entries)? = body["authData"] {
            for (provider, data) in entries.sorted(by: { $0.key < $1.key }) {
                await audit.record(data == .null ? .providerUnlinked : .providerLinked, userId: userId, detail: provider)
                if data == .null, linkedBefore.contains(provider) { notify(.providerUnlinked(provider), userId: userId) }
                if data != .null, !linkedBefore.contains(provider) { notify(.providerLinked(provider), userId: userId) }
            }
        }
        if let verifyToken, let user = try await user(userId) { await sendVerification(to: user, token: verifyToken, acceptLanguage: acceptLanguage) }
        await afterUserSave(userId, original: original, principal: principal)
        guard let first = outcomes.first else { throw ParseError.internalError }
        var answer = try Objects.response(to: first)
        if let newToken { answer["sessionToken"] = .string(newToken) }
        return answer
    }

    /// `DELETE /users/:id`: the user itself or the master key; its sessions go with it.
    package func deleteUser(_ userId: String, principal: Principal) async throws {
        try checkSelf(userId, principal)
        let schema = try await server.schema(.user)
        let decision = try AccessPolicy.check(.delete, on: .user, clp: schema?.clp ?? .open, principal: principal)
        try await objects.beforeDelete(.user, objectId: userId, principal: principal)
        let original = await userBeforeWrite(userId, for: .afterDelete)
        var operations: [WriteOperation] = [.delete(className: .user, objectId: userId, access: objects.writeAccess(decision, principal))]
        operations += try await sessionIds(of: userId).map { AsServer.delete(.session, $0) }
        _ = try await server.write(operations)
        await forget(.userSessions(userId: userId))
        if let original { _ = try? await objects.runTrigger(.afterDelete, .user, objectId: userId, object: original, principal: principal) }
    }

    /// Parse answers 206 when someone else's user object is changed.
    func checkSelf(_ userId: String, _ principal: Principal) throws(ParseError) {
        guard principal.isMaster || principal.userId == userId else {
            throw ParseError(.sessionMissing, "Cannot modify user \(ClassName.printable(userId)).")
        }
    }

    func sessionIds(of userId: String, installationId: String? = nil) async throws -> [String] {
        var query = try Self.sessions(of: userId)
        if let installationId {
            query = .and([query, .field(FieldPath(field: try FieldName("installationId")), .equals(.string(installationId)))])
        }
        return try await find(.session, query, limit: 10_000).map(\.objectId)
    }

    /// `_Session` objects whose `user` is `userId`.
    static func sessions(of userId: String) throws(ParseError) -> QueryNode {
        .field(FieldPath(field: try FieldName("user")), .equals(ObjectRef(className: .user, objectId: userId).pointerJSON))
    }

    /// Whether a user write in `operations` sets a username another user already has.
    static func usernameClashes(_ operations: [WriteOperation], lookup: AsServer) async throws -> Bool {
        for operation in operations where operation.className == .user {
            switch operation {
            case .insert(_, _, _, let write, _), .update(_, _, _, let write, _, _):
                guard let key = Self.usernameKey(write) else { continue }
                let query = QueryNode.field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key)))
                if try await lookup.find(.user, query, limit: 2).contains(where: { $0.objectId != operation.objectId }) { return true }
            case .delete: continue
            }
        }
        return false
    }

    private static func usernameKey(_ write: ObjectWrite) -> String? {
        for (path, op) in write.operations where path == FieldPath(field: .internal(.usernameKey)) {
            if case .set(.string(let key)) = op { return key }
        }
        return nil
    }

    static func takeString(_ fields: inout [String: JSON], _ key: String) throws(ParseError) -> String? {
        guard let value = fields.removeValue(forKey: key) else { return nil }
        guard case .string(let text) = value else { throw ParseError(.incorrectType, "\(key) must be a string.") }
        return text
    }
}
