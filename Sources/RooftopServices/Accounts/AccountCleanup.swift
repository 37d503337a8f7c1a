import RooftopCore
import RooftopStorage

/// The accounts' periodic cleanup, run by `Maintenance` on one node per interval: expired
/// sessions, never-converted anonymous users past `anonymousUserTTL`, and audit events past
/// `auditLogRetentionDays`, so none of those tables grows for ever.
package struct AccountCleanup: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts

    /// The use case over `accounts`.
    package init(accounts: Accounts) { self.accounts = accounts }

    /// Deletes audit events past `auditLogRetentionDays` (a batch per call; the hourly cleanup).
    package func pruneAuditLog() async throws -> Int {
        try await accounts.audit.prune(olderThanDays: accounts.config.auditLogRetentionDays)
    }

    /// Deletes sessions past `expiresAt`, in batches; returns how many went.
    ///
    /// Run periodically by the server (`Maintenance`), so `_Session` doesn't grow forever.
    package func deleteExpiredSessions(batchSize: Int = 500) async throws -> Int {
        let now = accounts.objects.clock.now()
        let expired = QueryNode.field(FieldPath(field: try FieldName("expiresAt")), .compare(.lt, ["__type": "Date", "iso": .string(now.iso)]))
        var total = 0
        while true {
            let ids = try await accounts.directory.find(.session, expired, limit: batchSize).map(\.objectId)
            if ids.isEmpty { return total }
            // A session deleted meanwhile (logout) makes its delete fail; do those one by one.
            do {
                try await accounts.server.write(ids.map { AsServer.delete(.session, $0) })
            } catch {
                _ = await accounts.server.deleteEach(.session, ids)
            }
            await accounts.sessions.forget(.sessions(ids: ids))
            total += ids.count
            if ids.count < batchSize { return total }
        }
    }

    /// Deletes anonymous users never converted (no password, no other provider) that have been
    /// inactive — not updated and no session opened — for `config.anonymousUserTTL` seconds,
    /// with their sessions. Their objects stay (readable by the master key). Off when the TTL is 0.
    package func deleteInactiveAnonymousUsers(batchSize: Int = 200) async throws -> Int {
        guard accounts.config.anonymousUserTTL > 0 else { return 0 }
        let now = accounts.objects.clock.now()
        let cutoff = ParseDate(millisecondsSince1970: now.millisecondsSince1970 - Int64(accounts.config.anonymousUserTTL) * 1000)
        let query = QueryNode.and([
            .field(FieldPath(field: .internal(authIdOf: "anonymous")), .exists(true)),
            .field(FieldPath(field: .internal(.hashedPassword)), .exists(false)),
            .field(FieldPath(field: .updatedAt), .compare(.lt, .string(cutoff.iso))),
        ])
        let users = try await accounts.directory.find(.user, query, limit: batchSize)
        var removed = 0
        for user in users {
            // Only anonymous: any other provider makes it a real account.
            let providers = user.fields.keys.filter { $0.hasPrefix(FieldName.authIdPrefix) }
            guard providers == [FieldName.authIdPrefix + "anonymous"] else { continue }
            let recent = QueryNode.and([
                try UserDirectory.sessions(of: user.objectId), .field(FieldPath(field: .createdAt), .compare(.gte, .string(cutoff.iso))),
            ])
            guard try await accounts.directory.find(.session, recent, limit: 1).isEmpty else { continue }
            try await UserChanges(accounts: accounts, origin: .server).deleteUser(user.objectId, principal: .master)
            removed += 1
        }
        return removed
    }
}
