package import RooftopCore
import RooftopStorage

/// `/sessions`: a signed-in user's own sessions — list them (the current one marked), read,
/// label, end one, open another, and sign out every other device. The server's fields (the
/// user, the token, the expiry, the device fields) are never the client's to write.
package struct SessionManagement: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

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
            guard let userId = principal.userId else { throw AccountSessions.invalidToken }
            query = try UserDirectory.sessions(of: userId)
        }
        var current: String?
        if let token { current = try await accounts.sessions.validate(token).1 }
        return try await accounts.directory.find(.session, query, limit: 1000).map { session in
            var json = session.json
            if let current { json["current"] = .bool(session.objectId == current) }
            return .object(json)
        }
    }

    /// `GET /sessions/me`: the session of the request's token, with the token.
    package func currentSession(token: String) async throws -> [String: JSON] {
        let (_, sessionId) = try await accounts.sessions.validate(token)
        var session = try await accounts.sessions.owned(sessionId, by: .master)
        session["sessionToken"] = .string(token)
        return session
    }

    /// `GET /sessions/:id`: one of the caller's sessions (101 for anyone else's).
    package func getSession(_ sessionId: String, principal: Principal) async throws -> [String: JSON] {
        try await accounts.sessions.owned(sessionId, by: principal)
    }

    /// `PUT /sessions/:id`: custom fields only; `user`, `sessionToken`, `expiresAt` and
    /// `createdWith` belong to the server (105).
    package func updateSession(_ sessionId: String, body: [String: JSON], principal: Principal) async throws -> [String: JSON] {
        _ = try await accounts.sessions.owned(sessionId, by: principal)
        if body["ACL"] != nil { throw ParseError(.invalidKeyName, "Cannot modify ACL of a session.") }
        var write = try ObjectWrite(body: body, isCreate: false)
        try Self.refuseServerFields(write, creating: false)
        write.objectId = nil
        let outcome = try await accounts.server.write([
            AsServer.update(.session, sessionId, at: accounts.objects.clock.now(), write)
        ])
        guard let first = outcome.first else { throw ParseError.internalError }
        return try Objects.response(to: first)
    }

    /// Refuses a write that touches a server field at any depth (`createdWith.authProvider`,
    /// `deviceName.x` and `deviceName` alike): 105 naming the field.
    static func refuseServerFields(_ write: ObjectWrite, creating: Bool) throws(ParseError) {
        for (path, _) in write.operations where serverOwnedSessionFields.contains(path.field.rawValue) {
            let field = path.field.rawValue
            throw ParseError(.invalidKeyName, creating ? "Cannot set \(field) on a session." : "Cannot modify \(field) of a session.")
        }
    }

    /// `DELETE /sessions/:id`: ends one of the caller's sessions at once (the cache forgets it).
    package func deleteSession(_ sessionId: String, principal: Principal) async throws {
        _ = try await accounts.sessions.owned(sessionId, by: principal)
        try await accounts.server.write([AsServer.delete(.session, sessionId)])
        await accounts.sessions.forget(.sessions(ids: [sessionId]))
        await accounts.audit.record(.sessionRevoked, userId: principal.userId, detail: sessionId, origin: origin)
    }

    /// `POST /sessions`: a further session for the signed-in user (server fields are refused).
    package func createSession(body: [String: JSON], principal: Principal, installationId: String?) async throws -> [String: JSON] {
        guard let userId = principal.userId else { throw AccountSessions.invalidToken }
        // `installationId` names the installation the device fields are read from (Parse's
        // field); the fields themselves are the server's.
        for key in ["ACL", "objectId"] where body[key] != nil { throw ParseError(.invalidKeyName, "Cannot set \(key) on a session.") }
        var extra = body
        extra["installationId"] = nil
        let custom = try ObjectWrite(body: extra, isCreate: true)
        try Self.refuseServerFields(custom, creating: true)
        let token = accounts.tokens.newToken()
        let installation = body["installationId"]?.stringValue ?? installationId
        let now = accounts.objects.clock.now()
        guard
            case .insert(_, let id, let at, var write, let grant) = try accounts.sessions.insert(
                userId: userId, token: token, action: "create", installationId: installation, at: now,
                device: await accounts.devices.fields(installationId: installation, at: now, origin: origin))
        else { throw ParseError.internalError }
        write.operations += custom.operations
        var group = WriteGroup([.insert(className: .session, objectId: id, at: at, write: write, grant: grant)])
        if let trim = try accounts.sessions.trim(of: userId, keeping: id) { group.trims.append(trim) }
        let outcome = try await accounts.server.write(group)
        await accounts.sessions.trimmed(outcome.trimmed.first ?? [], of: userId, origin: origin)
        return [
            "objectId": .string(id), "createdAt": .string(at.iso), "sessionToken": .string(token),
            "user": ObjectRef(className: .user, objectId: userId).pointerJSON,
        ]
    }

    /// `POST /sessions/revokeOthers`: ends every session of the caller's user but the one this
    /// request came with (at once, on every node); how many ended.
    package func revokeOtherSessions(token: String) async throws -> Int {
        let (userId, current) = try await accounts.sessions.validate(token)
        let others = try await accounts.directory.sessionIds(of: userId).filter { $0 != current }
        var revoked: [String] = []
        for id in others where (try? await accounts.server.write([AsServer.delete(.session, id)])) != nil {
            revoked.append(id)
        }
        guard !revoked.isEmpty else { return 0 }
        await accounts.sessions.forget(.sessions(ids: revoked))
        for id in revoked {
            await accounts.audit.record(.sessionRevoked, userId: userId, detail: "signed out from another device: \(id)", origin: origin)
        }
        return revoked.count
    }
}
