import RooftopCore
import RooftopServices
import RooftopStorage

extension ParseRoutes {
    /// `POST /users` (sign-up), `POST|GET /login`, `GET /users/me`, `POST /logout`.
    func accountRoutes(_ request: ParseRequest) async throws -> ParseResponse {
        switch (request.method, request.segments.last) {
        case ("POST", "users"):
            let result = try await accounts.signUp(body: request.body, installationId: request.installationId, acceptLanguage: request.acceptLanguage)
            guard result.created else {
                // authData named an existing user: this was a login.
                var body = result.user.json
                body["sessionToken"] = result.sessionToken.map(JSON.string)
                return ParseResponse(body: .object(body))
            }
            var body: [String: JSON] = ["objectId": .string(result.user.objectId), "createdAt": .string(result.user.createdAt.iso)]
            // No token while login waits for a verified email (Parse).
            body["sessionToken"] = result.sessionToken.map(JSON.string)
            // Users created through authData learn their generated username.
            if request.body["username"] == nil { body["username"] = result.user.fields["username"] }
            return ParseResponse(status: 201, body: .object(body), headers: [("Location", "/users/\(result.user.objectId)")])
        case (_, "login"):
            // Old SDKs send GET /login with credentials in the query string (never logged).
            let params = request.method == "GET" ? request.params : request.body
            let (user, token) = try await accounts.logIn(params: params, installationId: request.installationId)
            var body = user.json
            body["sessionToken"] = .string(token)
            return ParseResponse(body: .object(body))
        case ("GET", "me"):
            guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
            var body = try await accounts.me(token: token).json
            body["sessionToken"] = .string(token)
            return ParseResponse(body: .object(body))
        case ("PUT", let id?) where request.segments.count == 2:
            guard ObjectId.isPlausible(id) else { throw ParseError.objectNotFound }
            let answer = try await accounts.updateUser(
                id, body: request.body, principal: request.principal, installationId: request.installationId, acceptLanguage: request.acceptLanguage)
            return ParseResponse(body: .object(answer))
        case ("DELETE", let id?) where request.segments.count == 2:
            guard ObjectId.isPlausible(id) else { throw ParseError.objectNotFound }
            try await accounts.deleteUser(id, principal: request.principal)
            return ParseResponse(body: [:])
        case ("POST", "loginAs"):
            let (user, token) = try await accounts.logInAs(params: request.body, principal: request.principal, installationId: request.installationId)
            var body = user.json
            body["sessionToken"] = .string(token)
            return ParseResponse(body: .object(body))
        case (_, "verifyPassword"):
            let params = request.method == "GET" ? request.params : request.body
            return ParseResponse(body: .object(try await accounts.verifyPassword(params: params)))
        case ("POST", "upgradeToRevocableSession"):
            let body = try await accounts.upgradeToRevocableSession(principal: request.principal, installationId: request.installationId)
            return ParseResponse(body: .object(body))
        case ("POST", "requestPasswordReset"):
            try await accounts.requestPasswordReset(body: request.body, acceptLanguage: request.acceptLanguage)
            return ParseResponse(body: [:])
        case ("POST", "verificationEmailRequest"):
            try await accounts.requestVerificationEmail(body: request.body, acceptLanguage: request.acceptLanguage)
            return ParseResponse(body: [:])
        case ("POST", "logout"):
            guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
            try await accounts.logOut(token: token)
            return ParseResponse(body: [:])
        default:
            throw Self.unknown(request)
        }
    }
}
