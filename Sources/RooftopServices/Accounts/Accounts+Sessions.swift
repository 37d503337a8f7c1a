package import RooftopCore
import RooftopStorage

extension Accounts {
    /// Fields of `_Session` only the server sets.
    static let serverOwnedSessionFields = Set([
        "user", "sessionToken", "expiresAt", "createdWith", "restricted", "lastUsedAt", "createdAddress", "current",
    ]).union(deviceSessionFields)

    /// What "where am I signed in" shows to recognise a session: recorded by the server when the
    /// session opens (from the installation the request named), never written by a client,
    /// or a stolen session could pose as its victim's phone.
    static let deviceSessionFields: Set<String> = ["deviceName", "deviceType", "appName", "appVersion", "installationId"]

    /// `GET /sessions`: the caller's own sessions (the master key sees every session); the one
    /// the request came with is marked `"current": true`, the others `false`.
    package func listSessions(principal: Principal, token: String? = nil) async throws -> [JSON] {
        var query = QueryNode.always
        if !principal.isMaster {
            guard let userId = principal.userId else { throw Self.invalidToken }
            query = try Self.sessions(of: userId)
        }
        var current: String?
        if let token { current = try await validate(token).1 }
        return try await find(.session, query, limit: 1000).map { session in
            var json = session.json
            if let current { json["current"] = .bool(session.objectId == current) }
            return .object(json)
        }
    }

    /// `GET /sessions/me`: the session of the request's token, with the token.
    package func currentSession(token: String) async throws -> [String: JSON] {
        let (_, sessionId) = try await validate(token)
        var session = try await ownSession(sessionId, principal: .master)
        session["sessionToken"] = .string(token)
        return session
    }

    /// `GET /sessions/:id`: one of the caller's sessions (101 for anyone else's).
    package func getSession(_ sessionId: String, principal: Principal) async throws -> [String: JSON] {
        try await ownSession(sessionId, principal: principal)
    }

    /// `PUT /sessions/:id`: custom fields only; `user`, `sessionToken`, `expiresAt` and
    /// `createdWith` belong to the server (105).
    package func updateSession(_ sessionId: String, body: [String: JSON], principal: Principal) async throws -> [String: JSON] {
        _ = try await ownSession(sessionId, principal: principal)
        for key in body.keys where Self.serverOwnedSessionFields.contains(key) || key == "ACL" {
            throw ParseError(.invalidKeyName, "Cannot modify \(key) of a session.")
        }
        var write = try ObjectWrite(body: body, isCreate: false)
        write.objectId = nil
        let outcome = try await server.write([
            AsServer.update(.session, sessionId, at: objects.clock(), write)
        ])
        guard let first = outcome.first else { throw ParseError.internalError }
        return try Objects.response(to: first)
    }

    /// `DELETE /sessions/:id`: ends one of the caller's sessions at once (the cache forgets it).
    package func deleteSession(_ sessionId: String, principal: Principal) async throws {
        _ = try await ownSession(sessionId, principal: principal)
        try await server.write([AsServer.delete(.session, sessionId)])
        await forget(.sessions(ids: [sessionId]))
        await audit.record(.sessionRevoked, userId: principal.userId, detail: sessionId)
    }

    /// `POST /sessions`: a further session for the signed-in user (server fields are refused).
    package func createSession(body: [String: JSON], principal: Principal, installationId: String?) async throws -> [String: JSON] {
        guard let userId = principal.userId else { throw Self.invalidToken }
        // `installationId` names the installation the device fields are read from (Parse's
        // field); the fields themselves are the server's.
        for key in body.keys where (Self.serverOwnedSessionFields.contains(key) && key != "installationId") || key == "ACL" || key == "objectId" {
            throw ParseError(.invalidKeyName, "Cannot set \(key) on a session.")
        }
        let token = tokens.newToken()
        let installation = body["installationId"]?.stringValue ?? installationId
        let now = objects.clock()
        guard
            case .insert(_, let id, let at, var write, let grant) = try sessionInsert(
                userId: userId, token: token, action: "create", installationId: installation, at: now,
                device: await deviceFields(installationId: installation, at: now))
        else { throw ParseError.internalError }
        var extra = body
        extra["installationId"] = nil
        write.operations += try ObjectWrite(body: extra, isCreate: true).operations
        try await server.write([.insert(className: .session, objectId: id, at: at, write: write, grant: grant)])
        try await trimSessions(of: userId, keeping: id)
        return [
            "objectId": .string(id), "createdAt": .string(at.iso), "sessionToken": .string(token),
            "user": ObjectRef(className: .user, objectId: userId).pointerJSON,
        ]
    }

    /// Ends the user's oldest sessions past `maxSessionsPerUser` (after a new one was opened):
    /// a credential-stuffing run or a leaking client cannot grow `_Session` without bound.
    /// Each goes from every node's cache through the cache bus. At most 100 extra go per call,
    /// so a user who held more before the cap was lowered is trimmed over a few logins.
    func trimSessions(of userId: String, keeping newSession: String) async throws {
        let cap = config.maxSessionsPerUser
        guard cap > 0 else { return }
        let newestFirst = try await server.find(
            .session, try Self.sessions(of: userId), limit: cap + 100, order: [SortKey(path: FieldPath(field: .createdAt), descending: true)])
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
        guard let session = try await find(.session, query, limit: 1).first,
            principal.isMaster || (principal.userId != nil && session.fields["user"]?["objectId"]?.stringValue == principal.userId)
        else { throw ParseError.objectNotFound }
        return session.json
    }
}
