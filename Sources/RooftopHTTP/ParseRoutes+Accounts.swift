import RooftopCore
import RooftopServices
import RooftopStorage

extension ParseRoutes {
    /// `POST /users` (sign-up), `POST|GET /login`, `GET /users/me`, `POST /logout`.
    func accountRoutes(_ request: ParseRequest) async throws -> ParseResponse {
        switch (request.method, request.segments.last) {
        case ("POST", "users"):
            let (user, token) = try await accounts.signUp(body: request.body, installationId: request.installationId)
            return ParseResponse(
                status: 201,
                body: ["objectId": .string(user.objectId), "createdAt": .string(user.createdAt.iso), "sessionToken": .string(token)],
                headers: [("Location", "/users/\(user.objectId)")])
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
        case ("POST", "logout"):
            guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
            try await accounts.logOut(token: token)
            return ParseResponse(body: [:])
        default:
            throw Self.unknown(request)
        }
    }
}
