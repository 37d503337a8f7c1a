package import RooftopCore
package import RooftopStorage

/// The accounts' own lookups: a user's sessions, and the username rule every account write shares.
extension Accounts {
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

    static func usernameKey(_ write: ObjectWrite) -> String? {
        for (path, op) in write.operations where path == FieldPath(field: .internal(.usernameKey)) {
            if case .set(.string(let key)) = op { return key }
        }
        return nil
    }
}
