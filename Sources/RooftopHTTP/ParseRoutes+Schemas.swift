import RooftopCore
import RooftopServices

/// `/schemas`, `/schemas/:className` and `/aggregate/:className` (the route table requires the
/// master key).
extension ParseRoutes {
    func allSchemas(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: ["results": .array(try await schemaService.all().map(\.json))])
    }

    /// `POST /schemas` names the class in the body; `POST /schemas/:className` in the path.
    func createSchema(_ request: ParseRequest) async throws -> ParseResponse {
        let className: ClassName
        if request.pathParameters["className"] != nil {
            className = try request.className()
        } else {
            guard let name = request.body["className"]?.stringValue else { throw ParseError(.missingObjectId, "POST /schemas needs a class name.") }
            className = try ClassName(name)
        }
        return ParseResponse(body: try await schemaService.create(className, body: request.body).json)
    }

    func getSchema(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: try await schemaService.get(try request.className()).json)
    }

    func updateSchema(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: try await schemaService.update(try request.className(), body: request.body).json)
    }

    func deleteSchema(_ request: ParseRequest) async throws -> ParseResponse {
        try await schemaService.delete(try request.className())
        return ParseResponse(body: [:])
    }

    func aggregate(_ request: ParseRequest) async throws -> ParseResponse {
        let results = try await aggregates.run(try request.className(), params: request.params, principal: request.principal)
        return ParseResponse(body: ["results": .array(results)])
    }
}
