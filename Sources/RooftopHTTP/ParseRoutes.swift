import RooftopCore
import RooftopServices
import RooftopStorage

/// The route table: `(method, path)` → use case.
struct ParseRoutes: Sendable {
    let objects: Objects
    let schemaService: Schemas

    func dispatch(_ request: ParseRequest) async throws -> ParseResponse {
        let s = request.segments
        switch (request.method, s.count, s.first) {
        case (_, 2, "classes"), (_, 3, "classes"):
            return try await classes(request)
        case (_, 1, "schemas"), (_, 2, "schemas"):
            return try await schemas(request)
        case (_, _, "files"):
            throw ParseError(ParseError.Code(130), "File upload is not available on this server yet.")
        default:
            throw Self.unknown(request)
        }
    }

    static func unknown(_ request: ParseRequest) -> ParseError {
        let path = request.segments.prefix(3).map { ClassName.printable($0) }.joined(separator: "/")
        return ParseError(.invalidJSON, "Unknown route: \(request.method) /\(path).")
    }

    private func classes(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try ClassName(request.segments[1])
        if request.segments.count == 2 {
            switch request.method {
            case "GET":
                let found = try await objects.find(className, params: request.params, principal: request.principal)
                var body: [String: JSON] = ["results": .array(found.results)]
                if let count = found.count { body["count"] = .number(Double(count)) }
                return ParseResponse(body: .object(body))
            case "POST":
                let object = try await objects.create(className, body: request.body, principal: request.principal)
                return ParseResponse(
                    status: 201, body: ["objectId": .string(object.objectId), "createdAt": .string(object.createdAt.iso)],
                    headers: [("Location", "/classes/\(className)/\(object.objectId)")])
            default: throw Self.unknown(request)
            }
        }
        let objectId = request.segments[2]
        guard ObjectId.isPlausible(objectId) else { throw ParseError.objectNotFound }
        switch request.method {
        case "GET":
            return ParseResponse(body: try await objects.get(className, objectId: objectId, params: request.params, principal: request.principal))
        case "PUT":
            let echo = try await objects.update(className, objectId: objectId, body: request.body, principal: request.principal)
            return ParseResponse(body: .object(echo))
        case "DELETE":
            try await objects.delete(className, objectId: objectId, principal: request.principal)
            return ParseResponse(body: [:])
        default: throw Self.unknown(request)
        }
    }
}
