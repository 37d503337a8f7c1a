import RooftopCore
package import RooftopStorage

/// Sessions as the server keeps them: the write that opens one, validating a token (through
/// this node's cache, renewing it when `extendSessionOnUse` says so), the cap on a user's live
/// sessions, and the cache's invalidations, here and on the other nodes.
package struct AccountSessions: Sendable {
    /// The server's own reads and writes of `_Session`.
    let server: AsServer
    /// Makes tokens and the digests stored in their place.
    let tokens: any SessionTokenSource
    /// Session length, renewal on use and the per-user cap.
    let config: AccountsConfiguration
    /// Reads sessions by token digest or id.
    let directory: UserDirectory
    /// Marks a session used, and records a new one's first use.
    let devices: SessionDevices
    /// Records sessions the cap ends.
    let audit: AuditLog
    /// Validated sessions, so a warm request costs no database round trip.
    let cache: SessionCache
    /// Now, for expiry.
    let clock: any ServerClock

    /// Sessions kept through `server`, `tokens` making their tokens.
    init(
        server: AsServer, tokens: any SessionTokenSource, config: AccountsConfiguration, directory: UserDirectory, devices: SessionDevices,
        audit: AuditLog, clock: any ServerClock
    ) {
        self.server = server
        self.tokens = tokens
        self.config = config
        self.directory = directory
        self.devices = devices
        self.audit = audit
        self.cache = SessionCache(clock: clock)
        self.clock = clock
    }

    /// Parse's answer for an unknown or expired session token (209).
    static let invalidToken = ParseError(.invalidSessionToken, "Invalid session token")

    /// (userId, sessionId) of a live session.
    func validate(_ token: String) async throws -> (String, String) {
        let digest = tokens.digest(token)
        // Without the other nodes' invalidations, the cache can't be trusted: read every time.
        let live = server.store.cacheBus.isLive
        let (hit, generation) = await cache.lookup(digest)
        if live, let hit {
            devices.touch(hit.sessionId)
            return (hit.userId, hit.sessionId)
        }
        let query = QueryNode.field(FieldPath(field: .internal(.sessionToken)), .equals(.string(digest)))
        guard let session = try await directory.find(.session, query, limit: 1).first,
            let userId = session.fields["user"]?["objectId"]?.stringValue,
            let expires = session.fields["expiresAt"]?["iso"]?.stringValue.flatMap(ParseDate.init(iso:))
        else { throw Self.invalidToken }
        let now = clock.now()
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
        devices.touch(session.objectId)
        return (userId, session.objectId)
    }

    /// The write that opens a session for `userId` (the token stored as its digest), expiring
    /// `sessionLength` from `now`; its first use is recorded so `lastUsedAt` isn't rewritten at once.
    /// `createdWith` says how it was opened: Parse's `action` and `authProvider`, and
    /// `secondFactor` (`totp` or `recovery`) when one was proved (`SessionStrength` reads it).
    func insert(
        userId: String, token: String, action: String, provider: String = "password", secondFactor: String? = nil, installationId: String?,
        at now: ParseDate, device: [String: JSON] = [:]
    ) throws -> WriteOperation {
        let expires = ParseDate(millisecondsSince1970: now.millisecondsSince1970 + Int64(config.sessionLength) * 1000)
        var write = ObjectWrite()
        write.operations = [
            (FieldPath(field: try FieldName("user")), .set(ObjectRef(className: .user, objectId: userId).pointerJSON)),
            (
                FieldPath(field: try FieldName("createdWith")),
                .set(.object(SessionStrength.createdWith(action: action, provider: provider, secondFactor: secondFactor)))
            ),
            (FieldPath(field: try FieldName("expiresAt")), .set(["__type": "Date", "iso": .string(expires.iso)])),
            (FieldPath(field: .internal(.sessionToken)), .set(.string(tokens.digest(token)))),
        ]
        if let installationId { write.operations.append((FieldPath(field: try FieldName("installationId")), .set(.string(installationId)))) }
        for (key, value) in device.sorted(by: { $0.key < $1.key }) { write.operations.append((FieldPath(field: try FieldName(key)), .set(value))) }
        write.acl = ACL(readers: [userId], writers: [userId])
        let id = server.newObjectId()
        devices.sessionUse.opened(id, now: now.millisecondsSince1970)
        return .insert(className: .session, objectId: id, at: now, write: write, grant: SchemaGrant(createClass: true, addFields: true))
    }

    /// The trim that ends the user's oldest sessions past `maxSessionsPerUser`, written in the
    /// same transaction as the new session (nil without a cap): a credential-stuffing run or a
    /// leaking client cannot grow `_Session` without bound. At most 100 extra go per write, so
    /// a user who held more before the cap was lowered is trimmed over a few logins.
    func trim(of userId: String, keeping newSession: String) throws -> WriteGroup.Trim? {
        let cap = config.maxSessionsPerUser
        guard cap > 0 else { return nil }
        // The new session stays whatever the clock says (two sessions may share a millisecond).
        let others = QueryNode.and([
            try UserDirectory.sessions(of: userId), .field(FieldPath(field: .objectId), .notEquals(.string(newSession))),
        ])
        return WriteGroup.Trim(.session, others, keeping: cap - 1)
    }

    /// After a trim: the sessions it ended leave every node's cache, and each is audited.
    func trimmed(_ revoked: [String], of userId: String, origin: RequestOrigin) async {
        guard !revoked.isEmpty else { return }
        await forget(.sessions(ids: revoked))
        for id in revoked { await audit.record(.sessionRevoked, userId: userId, detail: "session cap: \(id)", origin: origin) }
    }

    /// The session if it is the caller's (or the master key asks); else 101.
    func owned(_ sessionId: String, by principal: Principal) async throws -> [String: JSON] {
        guard ObjectId.isPlausible(sessionId) else { throw ParseError.objectNotFound }
        let query = QueryNode.field(FieldPath(field: .objectId), .equals(.string(sessionId)))
        guard let session = try await directory.find(.session, query, limit: 1).first,
            principal.isMaster || (principal.userId != nil && session.fields["user"]?["objectId"]?.stringValue == principal.userId)
        else { throw ParseError.objectNotFound }
        return session.json
    }

    /// Applies a change to this node's session cache, then tells the other nodes.
    func forget(_ event: CacheEvent) async {
        await apply(event)
        await server.store.cacheBus.publish(event)
    }

    /// Applies a change (this node's or another's) to the session cache.
    package func apply(_ event: CacheEvent) async {
        switch event {
        case .sessionToken(let digest): await cache.remove(digest)
        case .sessions(let ids): await cache.removeSessions(Set(ids))
        case .userSessions(let userId): await cache.removeUser(userId)
        case .everything: await cache.removeAll()
        case .roles, .schema, .config, .hooks: break
        }
    }
}
