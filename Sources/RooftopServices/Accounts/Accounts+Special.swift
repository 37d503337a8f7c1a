package import RooftopCore
package import RooftopStorage

extension Accounts {
    /// `POST /loginAs` (master key only): a session for any user, for support tools.
    package func logInAs(params: [String: JSON], principal: Principal, installationId: String?) async throws -> (StoredObject, String) {
        guard principal.isMaster else { throw ParseError(.operationForbidden, "master key is required") }
        guard case .string(let userId)? = params["userId"], !userId.isEmpty else {
            throw ParseError(ParseError.Code(162), "userId must not be empty, null, or undefined")
        }
        guard ObjectId.isPlausible(userId), let user = try await user(userId) else { throw ParseError(.objectNotFound, "user not found") }
        let token = try await openSession(for: user, action: "login", provider: "masterkey", installationId: installationId)
        await audit.record(.loginAs, userId: user.objectId)
        return (user, token)
    }

    /// `/verifyPassword`: checks credentials like a login but opens no session; the answer has
    /// neither a token nor `authData`.
    package func verifyPassword(params: [String: JSON]) async throws -> [String: JSON] {
        let user = try await checkCredentials(params)
        var body = user.json
        body["authData"] = nil
        return body
    }

    /// `POST /upgradeToRevocableSession`: every Rooftop session is revocable already; the
    /// caller gets a fresh one, as Parse answers.
    package func upgradeToRevocableSession(principal: Principal, installationId: String?) async throws -> [String: JSON] {
        guard let userId = principal.userId, let user = try await user(userId) else { throw Self.invalidToken }
        let token = try await openSession(for: user, action: "upgrade", provider: "password", installationId: installationId)
        return ["sessionToken": .string(token), "user": ObjectRef(className: .user, objectId: userId).pointerJSON]
    }

    func user(_ userId: String) async throws -> StoredObject? {
        try await find(.user, .field(FieldPath(field: .objectId), .equals(.string(userId))), limit: 1).first
    }
}
