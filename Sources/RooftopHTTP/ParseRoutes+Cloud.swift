import Foundation
import HTTPTypes
import RooftopCore
import RooftopServices

/// Server-side logic: cloud functions (`/functions/:name`) and Parse Config (`/config`).
extension ParseRoutes {
    /// `POST /functions/:name`: the function's result as `{"result": …}`.
    func callFunction(_ request: ParseRequest) async throws -> ParseResponse {
        // Percent-decoded, as the SDKs encode names with spaces or other characters.
        let name = (request.pathParameters["name"] ?? "").removingPercentEncoding ?? ""
        let result = try await functions.call(name, params: request.body, origin: request.origin)
        return ParseResponse(body: ["result": result])
    }

    /// `POST /jobs/:name` and `POST /jobs` with `jobName` (master key): starts the job in the
    /// background and answers at once, `{}` with the run's `_JobStatus` id in
    /// `X-Parse-Job-Status-Id`, as Parse.
    func startJob(_ request: ParseRequest) async throws -> ParseResponse {
        var params = request.body
        let name = request.pathParameters["name"] ?? params.removeValue(forKey: "jobName")?.stringValue ?? ""
        let statusId = try await jobs.start(name, params: params)
        return ParseResponse(body: [:], headers: [("X-Parse-Job-Status-Id", statusId)])
    }

    /// `GET /config`: `{"params": …}`; master-only values for the master key alone.
    func getConfig(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: try await globalConfig.answer(isMaster: request.principal.isMaster))
    }

    /// `PUT /config` (master key): `{"result": true}`, as Parse.
    func updateConfig(_ request: ParseRequest) async throws -> ParseResponse {
        try await globalConfig.update(body: request.body)
        return ParseResponse(body: ["result": true])
    }

    /// Headers a handler never sees: the secrets the request was admitted with.
    static let secretHeaders: Set<String> = [
        "x-parse-master-key", "x-parse-maintenance-key", "x-parse-session-token", "x-parse-client-key", "x-parse-javascript-key",
        "x-parse-rest-api-key", "x-parse-windows-key", "authorization", "cookie",
    ]

    /// What a handler learns of its request: rights, session, device, address and headers.
    static func caller(of request: ParseRequest) -> CloudCaller {
        var headers: [String: String] = [:]
        for field in request.headers where !secretHeaders.contains(field.name.canonicalName) {
            headers[field.name.canonicalName] = headers[field.name.canonicalName].map { $0 + ", " + field.value } ?? field.value
        }
        return CloudCaller(
            principal: request.principal, sessionToken: request.sessionToken, installationId: request.installationId,
            clientIP: request.clientIP, headers: headers)
    }
}
