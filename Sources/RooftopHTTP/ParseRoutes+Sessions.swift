import RooftopCore
import RooftopServices

/// `/sessions`, `/sessions/me`, `/sessions/:objectId` (the route table requires a user or the
/// master key; someone else's session is 101).
extension ParseRoutes {
    /// The `/sessions` use case.
    var sessions: SessionManagement { SessionManagement(accounts: accounts) }

    func listSessions(_ request: ParseRequest) async throws -> ParseResponse {
        // The master key lists every session: none of them is "current".
        let token = request.principal.isMaster ? nil : request.sessionToken
        return ParseResponse(body: ["results": .array(try await sessions.listSessions(principal: request.principal, token: token))])
    }

    func createSession(_ request: ParseRequest) async throws -> ParseResponse {
        let created = try await sessions.createSession(body: request.body, principal: request.principal, installationId: request.installationId)
        return ParseResponse(status: 201, body: .object(created))
    }

    func currentSession(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return ParseResponse(body: .object(try await sessions.currentSession(token: token)))
    }

    func getSession(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await sessions.getSession(request.pathParameters["objectId"] ?? "", principal: request.principal)))
    }

    func updateSession(_ request: ParseRequest) async throws -> ParseResponse {
        let id = request.pathParameters["objectId"] ?? ""
        return ParseResponse(body: .object(try await sessions.updateSession(id, body: request.body, principal: request.principal)))
    }

    func deleteSession(_ request: ParseRequest) async throws -> ParseResponse {
        try await sessions.deleteSession(request.pathParameters["objectId"] ?? "", principal: request.principal)
        return ParseResponse(body: [:])
    }

    /// `POST /sessions/revokeOthers`: signs the user out everywhere but here; `{"revoked": n}`.
    func revokeOtherSessions(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return ParseResponse(body: ["revoked": .number(Double(try await sessions.revokeOtherSessions(token: token)))])
    }
}
