import RooftopCore
import RooftopServices

/// `/sessions`, `/sessions/me`, `/sessions/:objectId` (the route table requires a user or the
/// master key; someone else's session is 101).
extension ParseRoutes {
    /// The `/sessions` use case.
    func sessions(_ request: ParseRequest) -> SessionManagement { SessionManagement(accounts: accounts, origin: request.origin) }

    func listSessions(_ request: ParseRequest) async throws -> ParseResponse {
        // The master key lists every session: none of them is "current".
        let token = request.principal.isMaster ? nil : request.sessionToken
        return ParseResponse(body: ["results": .array(try await sessions(request).listSessions(principal: request.principal, token: token))])
    }

    func createSession(_ request: ParseRequest) async throws -> ParseResponse {
        let created = try await sessions(request).createSession(
            body: request.body, principal: request.principal, installationId: request.installationId)
        return ParseResponse(status: 201, body: .object(created))
    }

    func currentSession(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return ParseResponse(body: .object(try await sessions(request).currentSession(token: token)))
    }

    func getSession(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await sessions(request).getSession(request.pathParameters["objectId"] ?? "", principal: request.principal)))
    }

    func updateSession(_ request: ParseRequest) async throws -> ParseResponse {
        let id = request.pathParameters["objectId"] ?? ""
        return ParseResponse(body: .object(try await sessions(request).updateSession(id, body: request.body, principal: request.principal)))
    }

    func deleteSession(_ request: ParseRequest) async throws -> ParseResponse {
        try await sessions(request).deleteSession(request.pathParameters["objectId"] ?? "", principal: request.principal)
        return ParseResponse(body: [:])
    }

    /// `POST /sessions/revokeOthers`: signs the user out everywhere but here; `{"revoked": n}`.
    func revokeOtherSessions(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        return ParseResponse(body: ["revoked": .number(Double(try await sessions(request).revokeOtherSessions(token: token)))])
    }
}
