import RooftopCore
import RooftopStorage

/// The server's lookups of users and their sessions, and the username rule every account write
/// shares.
struct UserDirectory: Sendable {
    /// The server's own reads, with the account errors (202, 203, 208) answered first.
    let server: AsServer

    /// Objects of `className` matching `query`, read with the server's own (master) access: the
    /// account use cases see internal fields that no client read can.
    func find(_ className: ClassName, _ query: QueryNode, limit: Int = 100) async throws -> [StoredObject] {
        try await server.find(className, query, limit: limit)
    }

    /// The user with this id, if there is one.
    func user(_ userId: String) async throws -> StoredObject? {
        try await find(.user, .field(FieldPath(field: .objectId), .equals(.string(userId))), limit: 1).first
    }

    /// The user a login names: by `username` (or an email typed into it) or by `email`, compared
    /// as their normalized, uniquely indexed keys; nil when nothing is named or nobody matches.
    func user(username: String?, email: String? = nil) async throws -> StoredObject? {
        var candidates: [QueryNode] = []
        if let username {
            let key = AccountKey.normalize(username)
            candidates.append(.field(FieldPath(field: .internal(.usernameKey)), .equals(.string(key))))
            if username.contains("@") { candidates.append(.field(FieldPath(field: .internal(.emailKey)), .equals(.string(key)))) }
        }
        if let email { candidates.append(.field(FieldPath(field: .internal(.emailKey)), .equals(.string(AccountKey.normalize(email))))) }
        guard !candidates.isEmpty else { return nil }
        return try await find(.user, .or(candidates), limit: 1).first
    }

    /// The user linked to any of these identities.
    func user(linkedTo identities: [(provider: String, id: String, data: JSON)]) async throws -> StoredObject? {
        let conditions = identities.map { QueryNode.field(FieldPath(field: AuthProviders.idField($0.provider)), .equals(.string($0.id))) }
        let users = try await find(.user, .or(conditions), limit: 2)
        guard users.count <= 1 else { throw ParseError(.accountAlreadyLinked, "this auth is already used") }
        return users.first
    }

    /// The ids of the user's sessions (only the one on `installationId`, when given).
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

    /// The normalized username a write sets, if it sets one.
    static func usernameKey(_ write: ObjectWrite) -> String? {
        for (path, op) in write.operations where path == FieldPath(field: .internal(.usernameKey)) {
            if case .set(.string(let key)) = op { return key }
        }
        return nil
    }
}
