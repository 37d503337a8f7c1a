import RooftopCore
import RooftopServices

extension ParseRoutes {
    /// `GET /aggregate/:className` (master key only).
    func aggregate(_ request: ParseRequest) async throws -> ParseResponse {
        guard request.principal.isMaster else { throw UnauthorizedError.masterRequired }
        guard request.method == "GET" else { throw Self.unknown(request) }
        let className = try ClassName(request.segments[1])
        let results = try await aggregates.run(className, params: request.params, principal: request.principal)
        return ParseResponse(body: ["results": .array(results)])
    }
}
