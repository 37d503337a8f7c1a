package import RooftopCore
import RooftopStorage

/// The use cases' results in the shape the REST answers carry, so the HTTP layer writes them
/// without knowing how objects are stored.
extension Accounts {
    /// `GET /users/me`: the user with the token it was asked with. `signedIn` is the user the
    /// request was already authenticated as with this very token, so the session isn't checked
    /// twice.
    package func meAnswer(token: String, signedIn: String? = nil) async throws -> [String: JSON] {
        Self.withToken(try await me(token: token, signedIn: signedIn).json, token)
    }

    static func withToken(_ user: [String: JSON], _ token: String?) -> [String: JSON] {
        var body = AuthProviders.redacted(user)
        body["sessionToken"] = token.map(JSON.string)
        return body
    }
}

/// A write planned for a `/batch` transaction, committed with the others or not at all.
package struct PlannedWrite: Sendable {
    let operation: WriteOperation
}

extension Objects {
    /// `POST /classes/:className`: the new object's id and creation time.
    package func createAnswer(_ className: ClassName, body: [String: JSON], principal: Principal) async throws -> (
        objectId: String, createdAt: String
    ) {
        let object = try await create(className, body: body, principal: principal)
        return (object.objectId, object.createdAt.iso)
    }

    /// Plans a create for a transaction.
    package func plannedCreate(_ className: ClassName, body: [String: JSON], principal: Principal) async throws -> PlannedWrite {
        PlannedWrite(operation: try await planCreate(className, body: body, principal: principal))
    }

    /// Plans an update for a transaction.
    package func plannedUpdate(_ className: ClassName, objectId: String, body: [String: JSON], principal: Principal) async throws -> PlannedWrite {
        PlannedWrite(operation: try await planUpdate(className, objectId: objectId, body: body, principal: principal))
    }

    /// Plans a delete for a transaction.
    package func plannedDelete(_ className: ClassName, objectId: String, principal: Principal) async throws -> PlannedWrite {
        PlannedWrite(operation: try await planDelete(className, objectId: objectId, principal: principal))
    }

    /// Commits planned writes in one transaction; each one's answer, in order.
    package func commitAnswers(_ writes: [PlannedWrite]) async throws -> [[String: JSON]] {
        try await commit(writes.map(\.operation)).map { try Objects.response(to: $0) }
    }
}
