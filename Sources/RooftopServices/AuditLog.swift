package import Logging
package import RooftopCore
package import RooftopStorage

/// Authentication events, appended to the `_Audit` class (master-only to read, never writable
/// through the API): time, type, user, client address and user agent, and a reason for failures.
package struct AuditLog: Sendable {
    /// Event types.
    package enum Event: String, Sendable, CaseIterable {
        case signup, login, loginFailed = "login.failed", logout, loginAs = "login.as"
        case passwordChanged = "password.changed", passwordReset = "password.reset", emailChanged = "email.changed"
        case emailVerified = "email.verified", sessionRevoked = "session.revoked", lockout
        case providerLinked = "provider.linked", providerUnlinked = "provider.unlinked"
        case accountUnlocked = "account.unlocked", userDeleted = "user.deleted"
        case secondFactorEnabled = "second.factor.enabled", secondFactorRemoved = "second.factor.removed"
        case secondFactorRecoveryUsed = "second.factor.recovery.used", secondFactorRecoveryRenewed = "second.factor.recovery.renewed"
        case passkeyAdded = "passkey.added", passkeyRemoved = "passkey.removed", passkeyRenamed = "passkey.renamed"
        case passkeyCounterWentBack = "passkey.counter.regressed"
        case verificationSent = "verification.sent", passwordResetSent = "password.reset.sent"
        case adminLogin = "admin.login", adminLoginFailed = "admin.login.failed", adminLogout = "admin.logout"
        case adminLockout = "admin.lockout"
        /// The console changed a class's schema (fields, indexes, permissions, the class itself).
        case adminSchemaChanged = "admin.schema.changed"
        case adminExport = "admin.export", adminBackup = "admin.backup"
        case adminObjectCreated = "admin.object.created", adminObjectUpdated = "admin.object.updated"
        case adminObjectDeleted = "admin.object.deleted"
        case adminRoleCreated = "admin.role.created", adminRoleUpdated = "admin.role.updated"
        case adminUserUpdated = "admin.user.updated", adminUserViewAs = "admin.user.viewAs"
    }

    let store: any DataStore
    let clock: any ServerClock
    let logger: Logger
    /// Whether events are recorded at all.
    package var enabled: Bool

    /// Creates the log.
    package init(store: any DataStore, clock: any ServerClock, logger: Logger, enabled: Bool = true) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.enabled = enabled
    }

    /// Appends one event. A failure to record is logged, never returned: the audit log must not
    /// turn a working login into an error.
    package func record(_ event: Event, userId: String?, reason: String? = nil, detail: String? = nil, origin: RequestOrigin) async {
        do {
            guard let insert = try entry(event, userId: userId, reason: reason, detail: detail, origin: origin) else { return }
            _ = try await store.write([insert])
        } catch {
            logger.error("audit log write failed", metadata: ["event": "\(event.rawValue)", "error": "\(error)"])
        }
    }

    /// The insert that records one event, for a use case to write in the same transaction as
    /// what it records (a session and its login): then there is no login without its record.
    /// Nil when the log is off.
    func entry(_ event: Event, userId: String?, reason: String? = nil, detail: String? = nil, origin: RequestOrigin) throws -> WriteOperation? {
        guard enabled else { return nil }
        // The store refuses NUL in any text: a client's words must not fail the write they ride in.
        let text = { (value: String) -> JSON in
            guard value.contains("\u{0}") else { return .string(value) }
            return .string(String(String.UnicodeScalarView(value.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 })))
        }
        var fields: [String: JSON] = ["type": .string(event.rawValue)]
        fields["userId"] = userId.map(text)
        fields["ip"] = origin.clientIP.map(text)
        fields["userAgent"] = origin.userAgent.map { text(String($0.prefix(512))) }
        fields["reason"] = reason.map(text)
        fields["detail"] = detail.map(text)
        fields["admin"] = origin.admin.map(text)
        var write = try ObjectWrite(body: fields, isCreate: true)
        write.acl = ACL(readers: [], writers: [])
        return .insert(
            className: .audit, objectId: ObjectId.generate(length: 12), at: clock.now(), write: write,
            grant: SchemaGrant(createClass: true, addFields: true))
    }

    /// Events matching `query` (type, user, time range …), newest first (ties by id, so a page
    /// boundary is exact): for `rooftop audit` and the console.
    package func find(_ query: QueryNode, limit: Int) async throws -> [StoredObject] {
        var options = FindOptions()
        options.limit = limit
        options.order = [SortKey(path: FieldPath(field: .createdAt), descending: true), SortKey(path: FieldPath(field: .objectId), descending: true)]
        return try await store.find(FindRequest(className: .audit, query: query, options: options, scope: AccessScope(classes: [.audit: .master])))
    }

    /// The events after `event` in `find`'s order: paging by the index on `createdAt` instead of
    /// skipping rows.
    package static func after(createdAt: ParseDate, objectId: String) -> QueryNode {
        let at: JSON = ["__type": "Date", "iso": .string(createdAt.iso)]
        return .or([
            .field(FieldPath(field: .createdAt), .compare(.lt, at)),
            .and([.field(FieldPath(field: .createdAt), .equals(at)), .field(FieldPath(field: .objectId), .compare(.lt, .string(objectId)))]),
        ])
    }

    /// Deletes events older than `days` days, a bounded batch at a time; how many went.
    package func prune(olderThanDays days: Int) async throws -> Int {
        guard days > 0 else { return 0 }
        let cutoff = ParseDate(millisecondsSince1970: clock.now().millisecondsSince1970 - Int64(days) * 86_400_000)
        var options = FindOptions()
        options.limit = 10_000
        let old = QueryNode.field(FieldPath(field: .createdAt), .compare(.lt, ["__type": "Date", "iso": .string(cutoff.iso)]))
        let rows = try await store.find(FindRequest(className: .audit, query: old, options: options, scope: AccessScope(classes: [.audit: .master])))
        guard !rows.isEmpty else { return 0 }
        _ = try await store.write(rows.map { .delete(className: .audit, objectId: $0.objectId, access: .master) })
        return rows.count
    }
}
