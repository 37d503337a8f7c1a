import RooftopCore
import RooftopServices
import RooftopStorage

/// The route table: `(method, path)` → use case.
struct ParseRoutes: Sendable {
    let config: HTTPConfiguration
    let objects: Objects
    let schemaService: Schemas
    let aggregates: Aggregates
    let accounts: Accounts
    let limiter: RateLimiter

    func dispatch(_ request: ParseRequest) async throws -> ParseResponse {
        try await limiter.check(
            RateLimiter.Request(
                method: request.method, path: "/" + request.segments.joined(separator: "/"), clientIP: request.clientIP,
                userId: request.principal.userId, sessionToken: request.sessionToken, isMaster: request.principal.isMaster,
                account: Self.accountNamed(by: request)))
        let s = request.segments
        switch (request.method, s.count, s.first) {
        case (_, 2, "classes"), (_, 3, "classes"):
            return try await objectRoutes(request, className: try ClassName(s[1]), objectId: s.count == 3 ? s[2] : nil)
        case ("POST", 1, "users"), ("PUT", 2, "users"), ("DELETE", 2, "users"), ("POST", 1, "login"), ("GET", 1, "login"),
            ("POST", 1, "logout"), ("POST", 1, "loginAs"), (_, 1, "verifyPassword"), ("POST", 1, "upgradeToRevocableSession"),
            ("POST", 1, "verificationEmailRequest"), ("POST", 1, "requestPasswordReset"):
            return try await accountRoutes(request)
        case ("GET", 2, "users") where s[1] == "me":
            return try await accountRoutes(request)
        case (_, 1, "users"), (_, 2, "users"):
            return try await objectRoutes(request, className: .user, objectId: s.count == 2 ? s[1] : nil)
        case (_, 1, "sessions"), (_, 2, "sessions"):
            return try await sessionRoutes(request)
        case (_, 1, "roles"), (_, 2, "roles"):
            return try await objectRoutes(request, className: .role, objectId: s.count == 2 ? s[1] : nil)
        case (_, 2, "aggregate"):
            return try await aggregate(request)
        case (_, 1, "batch"):
            return try await batch(request)
        case (_, 1, "schemas"), (_, 2, "schemas"):
            return try await schemas(request)
        case (_, _, "files"):
            throw ParseError(ParseError.Code(130), "File upload is not available on this server yet.")
        default:
            throw Self.unknown(request)
        }
    }

    /// The account an authentication request names, for per-account limits.
    static func accountNamed(by request: ParseRequest) -> String? {
        guard request.segments.count == 1 else { return nil }
        let source = request.method == "GET" ? request.params : request.body
        switch RateLimiter.normalize(request.segments[0]) {
        case "/login", "/verifypassword": return (source["username"]?.stringValue ?? source["email"]?.stringValue).map(AccountKey.normalize)
        case "/requestpasswordreset", "/verificationemailrequest": return source["email"]?.stringValue.map(AccountKey.normalize)
        default: return nil
        }
    }

    static func unknown(_ request: ParseRequest) -> ParseError {
        let path = request.segments.prefix(3).map { ClassName.printable($0) }.joined(separator: "/")
        return ParseError(.invalidJSON, "Unknown route: \(request.method) /\(path).")
    }

    /// `/classes/:className(/:objectId)` and the class aliases (`/roles`).
    private func objectRoutes(_ request: ParseRequest, className: ClassName, objectId: String?) async throws -> ParseResponse {
        // `/classes/_User` writes are account writes: hashing, uniqueness, sessions (as Parse).
        if className == .user && request.method != "GET" {
            var account = request
            account.segments = ["users"] + (objectId.map { [$0] } ?? [])
            return try await accountRoutes(account)
        }
        guard let objectId else {
            switch request.method {
            case "GET":
                return ParseResponse(encoded: try await objects.findBody(className, params: request.params, principal: request.principal))
            case "POST":
                let object = try await objects.create(className, body: request.body, principal: request.principal)
                return ParseResponse(
                    status: 201, body: ["objectId": .string(object.objectId), "createdAt": .string(object.createdAt.iso)],
                    headers: [("Location", "/classes/\(className)/\(object.objectId)")])
            default: throw Self.unknown(request)
            }
        }
        guard ObjectId.isPlausible(objectId) else { throw ParseError.objectNotFound }
        switch request.method {
        case "GET":
            return ParseResponse(
                encoded: try await objects.getBody(className, objectId: objectId, params: request.params, principal: request.principal))
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
