import Foundation
package import RooftopCore
import RooftopStorage

/// What the admin console asks of the account use cases, with master rights: look a user up,
/// see why they cannot sign in, fix it, edit the user, see data as they would. Each change is
/// audited with the console's origin (its admin's name).
package struct AccountAdministration: Sendable {
    /// The account use cases it acts through (sessions, lockout, mail, user changes).
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The console's use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// Users whose objectId, username or email is `text`, then those whose username or email
    /// starts with it (names compared as logins compare them); at most `limit`, exact matches
    /// first. Every lookup is a range on a unique key's index (`Accounts+ConsoleSearch.swift`).
    package func searchUsers(_ text: String, limit: Int = 50) async throws -> [StoredObject] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\u{0}"), trimmed.utf8.count <= 512 else { return [] }
        let key = AccountKey.normalize(trimmed)
        var conditions: [QueryNode] = [
            .field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key))),
            .field(FieldPath(field: .internal(.emailKey)), .equals(.string(key))),
        ]
        if ObjectId.isPlausible(trimmed) { conditions.append(.field(FieldPath(field: .objectId), .equals(.string(trimmed)))) }
        let exact = try await accounts.directory.find(.user, .or(conditions), limit: limit)
        guard exact.count < limit else { return exact }
        return try await exact + usersStarting(with: key, limit: limit, except: Set(exact.map(\.objectId))).prefix(limit - exact.count)
    }

    /// One user with its internal fields (lockout, password dates), or nil.
    package func consoleUser(_ userId: String) async throws -> StoredObject? {
        guard ObjectId.isPlausible(userId) else { return nil }
        return try await accounts.directory.user(userId)
    }

    /// The user's sessions, newest first.
    package func consoleSessions(ofUser userId: String) async throws -> [StoredObject] {
        try await accounts.server.find(
            .session, try UserDirectory.sessions(of: userId), limit: 1000, order: [SortKey(path: FieldPath(field: .createdAt), descending: true)])
    }

    /// Until when (ms since 1970) the user's logins are locked out; nil when they are not.
    package func lockedUntil(_ user: StoredObject) -> Int64? {
        guard let until = user.fields[InternalField.lockoutExpiresAt.rawValue]?.numberValue else { return nil }
        return Double(accounts.objects.clock.now().millisecondsSince1970) < until ? Int64(until) : nil
    }

    /// Failed logins counted since the last success.
    package func failedLogins(_ user: StoredObject) -> Int {
        Int(user.fields[InternalField.failedLoginCount.rawValue]?.numberValue ?? 0)
    }

    /// Clears the user's failed-login count and lock.
    package func unlock(_ userId: String) async throws {
        guard try await consoleUser(userId) != nil else { throw ParseError.objectNotFound }
        try await accounts.lockout.reset(userId)
        await accounts.audit.record(.accountUnlocked, userId: userId, origin: origin)
    }

    /// Ends one of the user's sessions at once, on every node (101 when it is not theirs).
    package func revokeSession(_ sessionId: String, ofUser userId: String) async throws {
        let session = try await accounts.sessions.owned(sessionId, by: .master)
        guard session["user"]?["objectId"]?.stringValue == userId else { throw ParseError.objectNotFound }
        try await accounts.server.write([AsServer.delete(.session, sessionId)])
        await accounts.sessions.forget(.sessions(ids: [sessionId]))
        await accounts.audit.record(.sessionRevoked, userId: userId, detail: sessionId, origin: origin)
    }

    /// Ends every session of the user at once, on every node; how many ended.
    package func revokeAllSessions(ofUser userId: String) async throws -> Int {
        let revoked = await accounts.server.deleteEach(.session, try await accounts.directory.sessionIds(of: userId)).count
        await accounts.sessions.forget(.userSessions(userId: userId))
        await accounts.audit.record(.sessionRevoked, userId: userId, detail: "all sessions (\(revoked))", origin: origin)
        return revoked
    }

    /// Sends the user a new verification link now (any older link stops working).
    package func sendVerification(toUser userId: String) async throws {
        // As `/verificationEmailRequest`: only when the server verifies emails at all (the page
        // hides the button otherwise; a hand-made post must not get around that).
        guard mailsVerification else { throw Accounts.mailNotConfigured }
        guard let user = try await consoleUser(userId), user.fields["email"]?.stringValue != nil else {
            throw ParseError(.emailMissing, "This user has no email address.")
        }
        try await EmailVerification(accounts: accounts, origin: origin).issueVerification(for: user, acceptLanguage: nil)
        await accounts.audit.record(.verificationSent, userId: userId, origin: origin)
    }

    /// Sends the user a password-reset link now.
    package func sendPasswordReset(toUser userId: String) async throws {
        guard accounts.mail != nil else { throw Accounts.mailNotConfigured }
        guard let user = try await consoleUser(userId), user.fields["email"]?.stringValue != nil else {
            throw ParseError(.emailMissing, "This user has no email address.")
        }
        try await PasswordReset(accounts: accounts, origin: origin).issuePasswordReset(for: user, acceptLanguage: nil)
        await accounts.audit.record(.passwordResetSent, userId: userId, origin: origin)
    }

    /// Deletes the user and their sessions (their triggers run, as for the master key).
    package func consoleDeleteUser(_ userId: String) async throws {
        try await UserChanges(accounts: accounts, origin: origin).deleteUser(userId, principal: .master)
        await accounts.audit.record(.userDeleted, userId: userId, origin: origin)
    }

    /// Whether verification and reset mail can be sent.
    package var mailsVerification: Bool { accounts.mail != nil && accounts.config.verifyUserEmails }
}
