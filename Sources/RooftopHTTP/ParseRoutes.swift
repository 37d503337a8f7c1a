import RooftopCore
import RooftopServices

/// The use cases behind the route table, and the checks every route passes first.
struct ParseRoutes: Sendable {
    let config: HTTPConfiguration
    let objects: Objects
    let schemaService: Schemas
    let aggregates: Aggregates
    let accounts: Accounts
    let files: Files
    let functions: CloudFunctions
    let jobs: JobRunner
    let webhooks: WebhookRegistry
    let globalConfig: GlobalConfig
    let limiter: RateLimiter

    /// Finds the route for `request` in the table, admits it and runs it.
    func dispatch(_ request: ParseRequest) async throws -> ParseResponse {
        let (route, admitted) = try await admit(request)
        guard case .api(let handler) = route.handler else { throw Self.unknown(request) }
        return try await handler(self, admitted)
    }

    /// The route `request` names, after the checks that route demands (access and rate limits):
    /// whether the request came directly, through `_method` or as a `/batch` item.
    func admit(_ request: ParseRequest) async throws -> (Route, ParseRequest) {
        guard let (route, request) = Self.route(for: request) else {
            try await check(request, against: nil)
            throw Self.unknown(request)
        }
        try await check(request, against: route)
        return (route, request)
    }

    /// The table's route for `request`, and the request with the route's path parameters.
    static func route(for request: ParseRequest) -> (Route, ParseRequest)? {
        guard let (route, parameters) = index.find(request.method, request.segments) else { return nil }
        var request = request
        request.pathParameters = parameters
        return (route, request)
    }

    /// Counts `request` under the rate limits and refuses it when it lacks what `route` needs.
    ///
    /// A request no route answers is counted too: rules match paths however they are spelled
    /// (`/LOGIN`, `/%6Cogin`), and a miss must cost a guesser as much as a hit.
    func check(_ request: ParseRequest, against route: Route?, method: String? = nil) async throws {
        if route?.counted == false { return }
        try await limiter.check(
            RateLimiter.Request(
                method: method ?? request.method.rawValue, path: "/" + request.segments.joined(separator: "/"), clientIP: request.clientIP,
                userId: request.principal.userId, sessionToken: request.sessionToken, isMaster: request.principal.isMaster,
                account: Self.account(route?.account, of: request), alias: route?.limitPath.map { Self.fill($0, request.pathParameters) }))
        guard let route else { return }
        switch route.access {
        case .open, .client: break
        case .session: if request.sessionToken == nil { throw ParseError(.invalidSessionToken, "Invalid session token") }
        case .user:
            if !request.principal.isMaster && request.principal.userId == nil { throw ParseError(.invalidSessionToken, "Invalid session token") }
        case .master:
            if !request.principal.isMaster { throw request.masterKeyRejected ? UnauthorizedError.masterKeyWrong : UnauthorizedError.masterRequired }
        }
    }

    /// The account an authentication request names, for per-account limits.
    static func account(_ kind: RouteAccount?, of request: ParseRequest) -> String? {
        let source = request.arguments
        switch kind {
        case .usernameOrEmail: return (source["username"]?.stringValue ?? source["email"]?.stringValue).map(AccountKey.normalize)
        case .email: return source["email"]?.stringValue.map(AccountKey.normalize)
        case nil: return nil
        }
    }

    /// `pattern` with its `:name` segments replaced by `parameters`.
    static func fill(_ pattern: String, _ parameters: [String: String]) -> String {
        "/"
            + pattern.split(separator: "/").map { segment in
                segment.first == ":" ? parameters[String(segment.dropFirst())] ?? "" : String(segment)
            }.joined(separator: "/")
    }

    static func unknown(_ request: ParseRequest) -> ParseError {
        unknown(method: request.method.rawValue, segments: request.segments)
    }

    static func unknown(method: String, segments: [String]) -> ParseError {
        let path = segments.prefix(3).map { ClassName.printable($0) }.joined(separator: "/")
        return ParseError(.invalidJSON, "Unknown route: \(method) /\(path).")
    }
}

/// `/classes/:className(/:objectId)` and the class aliases (`/users`, `/roles`).
extension ParseRoutes {
    func find(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try request.className()
        return ParseResponse(
            encoded: try await objects.serving(request.origin).findBody(className, params: request.params, principal: request.principal))
    }

    func create(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try request.className()
        let (objectId, createdAt) = try await objects.serving(request.origin).createAnswer(
            className, body: request.body, principal: request.principal)
        return ParseResponse(
            status: 201, body: ["objectId": .string(objectId), "createdAt": .string(createdAt)],
            headers: [("Location", "/classes/\(className)/\(objectId)")])
    }

    func get(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try request.className()
        let objectId = try request.objectId()
        return ParseResponse(
            encoded: try await objects.serving(request.origin).getBody(
                className, objectId: objectId, params: request.params, principal: request.principal))
    }

    func update(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try request.className()
        let echo = try await objects.serving(request.origin).update(
            className, objectId: try request.objectId(), body: request.body, principal: request.principal)
        return ParseResponse(body: .object(echo))
    }

    func delete(_ request: ParseRequest) async throws -> ParseResponse {
        let className = try request.className()
        try await objects.serving(request.origin).delete(className, objectId: try request.objectId(), principal: request.principal)
        return ParseResponse(body: [:])
    }
}
