import RooftopCore
import RooftopServices

extension ParseRoutes {
    /// `/sessions`, `/sessions/me`, `/sessions/:id`.
    func sessionRoutes(_ request: ParseRequest) async throws -> ParseResponse {
        let principal = request.principal
        if !principal.isMaster && principal.userId == nil { throw ParseError(.invalidSessionToken, "Invalid session token") }
        let id = request.segments.count == 2 ? request.segments[1] : nil
        switch (request.method, id) {
        case ("GET", nil):
            return ParseResponse(body: ["results": .array(try await accounts.listSessions(principal: principal))])
        case ("POST", nil):
            let created = try await accounts.createSession(body: request.body, principal: principal, installationId: request.installationId)
            return ParseResponse(status: 201, body: .object(created))
        case ("GET", "me"?):
            guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
            return ParseResponse(body: .object(try await accounts.currentSession(token: token)))
        case ("GET", let id?):
            return ParseResponse(body: .object(try await accounts.getSession(id, principal: principal)))
        case ("PUT", let id?):
            return ParseResponse(body: .object(try await accounts.updateSession(id, body: request.body, principal: principal)))
        case ("DELETE", let id?):
            try await accounts.deleteSession(id, principal: principal)
            return ParseResponse(body: [:])
        default:
            throw Self.unknown(request)
        }
    }
}
