package import RooftopCore
import RooftopStorage

extension Accounts {
    /// Ends the user's oldest sessions past `maxSessionsPerUser` (after a new one was opened):
    /// a credential-stuffing run or a leaking client cannot grow `_Session` without bound.
    /// Each goes from every node's cache through the cache bus. At most 100 extra go per call,
    /// so a user who held more before the cap was lowered is trimmed over a few logins.
    func trimSessions(of userId: String, keeping newSession: String) async throws {
        let cap = config.maxSessionsPerUser
        guard cap > 0 else { return }
        let newestFirst = try await server.find(
            .session, try UserDirectory.sessions(of: userId), limit: cap + 100, order: [SortKey(path: FieldPath(field: .createdAt), descending: true)])
        guard newestFirst.count > cap else { return }
        // The new session stays whatever the clock says (two sessions may share a millisecond).
        let older = newestFirst.filter { $0.objectId != newSession }
        // One by one: a session that a logout or another login removed meanwhile is no failure.
        let revoked = await server.deleteEach(.session, older.dropFirst(cap - 1).map(\.objectId))
        guard !revoked.isEmpty else { return }
        await forget(.sessions(ids: revoked))
        for id in revoked { await audit.record(.sessionRevoked, userId: userId, detail: "session cap: \(id)") }
    }

    /// The session if it is the caller's (or the master key asks); else 101.
    func ownSession(_ sessionId: String, principal: Principal) async throws -> [String: JSON] {
        guard ObjectId.isPlausible(sessionId) else { throw ParseError.objectNotFound }
        let query = QueryNode.field(FieldPath(field: .objectId), .equals(.string(sessionId)))
        guard let session = try await directory.find(.session, query, limit: 1).first,
            principal.isMaster || (principal.userId != nil && session.fields["user"]?["objectId"]?.stringValue == principal.userId)
        else { throw ParseError.objectNotFound }
        return session.json
    }
}
