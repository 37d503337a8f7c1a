import RooftopCore
import RooftopServices

/// `/installations(/:objectId)` and `/classes/_Installation(/:objectId)`: the same handlers, so
/// both paths follow the same rules (`RooftopServices/Installations`).
extension ParseRoutes {
    func installations(_ request: ParseRequest) -> Installations { Installations(objects: objects.serving(request.origin)) }

    func findInstallations(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(encoded: try await installations(request).find(params: request.params, principal: request.principal))
    }

    func getInstallation(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(
            encoded: try await installations(request).get(
                objectId: try request.objectId(), params: request.params, principal: request.principal, installationId: request.installationId))
    }

    /// A create, or an update of the device's installation when one is found (200, as in Parse).
    func createInstallation(_ request: ParseRequest) async throws -> ParseResponse {
        let saved = try await installations(request).save(
            body: request.body, objectId: nil, principal: request.principal, installationId: request.installationId)
        guard saved.created else { return ParseResponse(body: .object(saved.answer)) }
        return ParseResponse(
            status: 201, body: .object(saved.answer), headers: [("Location", "/classes/_Installation/\(saved.objectId)")])
    }

    func updateInstallation(_ request: ParseRequest) async throws -> ParseResponse {
        let saved = try await installations(request).save(
            body: request.body, objectId: try request.objectId(), principal: request.principal, installationId: request.installationId)
        return ParseResponse(body: .object(saved.answer))
    }

    func deleteInstallation(_ request: ParseRequest) async throws -> ParseResponse {
        try await installations(request).delete(objectId: try request.objectId(), principal: request.principal)
        return ParseResponse(body: [:])
    }
}
