import RooftopCore
import RooftopServices

extension ParseRoutes {
    /// `/schemas` and `/schemas/:className` (master key only).
    func schemas(_ request: ParseRequest) async throws -> ParseResponse {
        guard request.principal.isMaster else { throw UnauthorizedError.masterRequired }
        let s = request.segments
        if s.count == 1 {
            switch request.method {
            case "GET":
                return ParseResponse(body: ["results": .array(try await schemaService.all().map(\.json))])
            case "POST":
                guard let name = request.body["className"]?.stringValue else {
                    throw ParseError(.missingObjectId, "POST /schemas needs a class name.")
                }
                return ParseResponse(body: try await schemaService.create(try ClassName(name), body: request.body).json)
            default: throw Self.unknown(request)
            }
        }
        let className = try ClassName(s[1])
        switch request.method {
        case "GET": return ParseResponse(body: try await schemaService.get(className).json)
        case "POST": return ParseResponse(body: try await schemaService.create(className, body: request.body).json)
        case "PUT": return ParseResponse(body: try await schemaService.update(className, body: request.body).json)
        case "DELETE":
            try await schemaService.delete(className)
            return ParseResponse(body: [:])
        default: throw Self.unknown(request)
        }
    }
}
