import RooftopCore
import RooftopServices
import RooftopStorage

/// Sign-up, login, the current user, user updates and the account mail requests.
extension ParseRoutes {
    func signUp(_ request: ParseRequest) async throws -> ParseResponse {
        let result = try await accounts.signUp(body: request.body, installationId: request.installationId, acceptLanguage: request.acceptLanguage)
        guard result.created else {
            // authData named an existing user: this was a login.
            return Self.withToken(result.user.json, result.sessionToken)
        }
        var body: [String: JSON] = ["objectId": .string(result.user.objectId), "createdAt": .string(result.user.createdAt.iso)]
        // No token while login waits for a verified email (Parse).
        body["sessionToken"] = result.sessionToken.map(JSON.string)
        // Users created through authData learn their generated username.
        if request.body["username"] == nil { body["username"] = result.user.fields["username"] }
        return ParseResponse(status: 201, body: .object(body), headers: [("Location", "/users/\(result.user.objectId)")])
    }

    func logIn(_ request: ParseRequest) async throws -> ParseResponse {
        let (user, token) = try await accounts.logIn(params: request.arguments, installationId: request.installationId)
        return Self.withToken(user.json, token)
    }

    func me(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return Self.withToken(try await accounts.me(token: token).json, token)
    }

    func updateUser(_ request: ParseRequest) async throws -> ParseResponse {
        let answer = try await accounts.updateUser(
            try request.objectId(), body: request.body, principal: request.principal, installationId: request.installationId,
            acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: .object(answer))
    }

    func deleteUser(_ request: ParseRequest) async throws -> ParseResponse {
        try await accounts.deleteUser(try request.objectId(), principal: request.principal)
        return ParseResponse(body: [:])
    }

    func logInAs(_ request: ParseRequest) async throws -> ParseResponse {
        let (user, token) = try await accounts.logInAs(params: request.body, principal: request.principal, installationId: request.installationId)
        return Self.withToken(user.json, token)
    }

    func verifyPassword(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await accounts.verifyPassword(params: request.arguments)))
    }

    func upgradeToRevocableSession(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(
            body: .object(try await accounts.upgradeToRevocableSession(principal: request.principal, installationId: request.installationId)))
    }

    func requestPasswordReset(_ request: ParseRequest) async throws -> ParseResponse {
        try await accounts.requestPasswordReset(body: request.body, acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: [:])
    }

    func requestVerificationEmail(_ request: ParseRequest) async throws -> ParseResponse {
        try await accounts.requestVerificationEmail(body: request.body, acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: [:])
    }

    func logOut(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        try await accounts.logOut(token: token)
        return ParseResponse(body: [:])
    }

    /// A user's fields with the session token that signed them in.
    static func withToken(_ user: [String: JSON], _ token: String?) -> ParseResponse {
        var body = user
        body["sessionToken"] = token.map(JSON.string)
        return ParseResponse(body: .object(body))
    }
}
