package import RooftopCore
import RooftopStorage

/// The use cases' results in the shape the REST answers carry, so the HTTP layer writes them
/// without knowing how objects are stored.
extension Accounts {
    /// A sign-up's answer: 201 with the new user's id, creation time and session (and its
    /// generated username when none was sent), or 200 with the user when `authData` named an
    /// existing one (a login).
    package struct SignUpAnswer: Sendable {
        /// Whether a user was created.
        package var created: Bool
        /// The answer's fields.
        package var body: [String: JSON]
        /// The new user's id.
        package var objectId: String
    }

    /// `POST /users`.
    package func signUpAnswer(body: [String: JSON], installationId: String?, acceptLanguage: String?) async throws -> SignUpAnswer {
        let result = try await signUp(body: body, installationId: installationId, acceptLanguage: acceptLanguage)
        guard result.created else {
            return SignUpAnswer(created: false, body: Self.withToken(result.user.json, result.sessionToken), objectId: result.user.objectId)
        }
        var answer: [String: JSON] = ["objectId": .string(result.user.objectId), "createdAt": .string(result.user.createdAt.iso)]
        // No token while login waits for a verified email (Parse).
        answer["sessionToken"] = result.sessionToken.map(JSON.string)
        // Users created through authData learn their generated username.
        if body["username"] == nil { answer["username"] = result.user.fields["username"] }
        return SignUpAnswer(created: true, body: answer, objectId: result.user.objectId)
    }

    /// `POST|GET /login`: the user with its new session token.
    package func logInAnswer(params: [String: JSON], installationId: String?) async throws -> [String: JSON] {
        let (user, token) = try await logIn(params: params, installationId: installationId)
        return Self.withToken(user.json, token)
    }

    /// `POST /loginAs`: the user with a new session token.
    package func logInAsAnswer(params: [String: JSON], principal: Principal, installationId: String?) async throws -> [String: JSON] {
        let (user, token) = try await logInAs(params: params, principal: principal, installationId: installationId)
        return Self.withToken(user.json, token)
    }

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
