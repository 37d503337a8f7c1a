import Hummingbird

/// The methods a Parse route answers; `_method` and `/batch` items name one of these too.
package enum RouteMethod: String, Sendable, CaseIterable {
    /// Read.
    case get = "GET"
    /// Create, or a call with a body.
    case post = "POST"
    /// Update.
    case put = "PUT"
    /// Delete.
    case delete = "DELETE"

    /// The method of an HTTP request, when it is one of the four.
    init?(_ method: HTTPRequest.Method) { self.init(rawValue: method.rawValue) }
}

/// What a route needs from the caller before its handler runs.
enum RouteAccess: String, Sendable {
    /// Nothing: no application id (health check, pages opened from emailed links).
    case open
    /// The application id (and a client key when the server is configured with one).
    case client
    /// A session token: 209 without one, even with the master key.
    case session
    /// A signed-in user or the master key: 209 otherwise.
    case user
    /// The master key: 403 otherwise.
    case master
}

/// Which account a request names, for rate-limit rules in the `account` zone.
enum RouteAccount: Sendable {
    /// `username` (or `email`) of the credentials.
    case usernameOrEmail
    /// `email`.
    case email
}

/// How a route's body is read before routing.
enum RouteBody: Sendable {
    /// A JSON object, at most `maxBodySize` bytes (API routes).
    case json
    /// A URL-encoded form, at most this many bytes (hosted pages).
    case form(Int)
    /// No body is read.
    case none
    /// The body is the route's to read as it arrives, chunk by chunk (file uploads): never
    /// collected before routing, never parsed as JSON.
    case stream

    /// Whether the body is read as JSON (and may carry `_method`).
    var isJSON: Bool {
        if case .json = self { return true }
        return false
    }
}

/// A write that may join a `/batch` with `transaction: true`.
enum TransactionalWrite: Sendable {
    /// `POST` of a new object.
    case create
    /// `PUT` of an existing object.
    case update
    /// `DELETE` of an existing object.
    case delete
}

/// One route: method, path pattern, what it needs, how limits count it, and its handler.
///
/// The table (`RouteTable.swift`) is the only list of routes: direct requests, `_method`
/// overrides and `/batch` items all find their route there, so the route's checks run however
/// it is reached.
struct Route: Sendable {
    /// What the route runs.
    enum Handler: Sendable {
        /// A JSON API route.
        case api(@Sendable (ParseRoutes, ParseRequest) async throws -> ParseResponse)
        /// A hosted HTML page (no application id; form bodies).
        case page(@Sendable (HostedPages, PageRequest) async throws -> Response)
        /// A route that reads the HTTP request itself and answers with its own response (files:
        /// a streamed body in, a streamed body and its own headers out).
        case raw(@Sendable (ParseRoutes, ParseRequest, Request) async throws -> Response)
    }

    let method: RouteMethod
    /// `/classes/:className/:objectId`: literal segments and `:name` parameters.
    let pattern: String
    let access: RouteAccess
    let body: RouteBody
    /// Counts as this path for rate limits (`POST /classes/_User` counts as `POST /users`).
    let limitPath: String?
    let account: RouteAccount?
    let transactional: TransactionalWrite?
    /// The class a path stands for when it names none (`/roles` is `_Role`).
    let className: String?
    /// Whether rate limits count it (not the health check: a load balancer's probes must never
    /// be refused).
    var counted = true
    /// Whether a `HEAD` is answered as this `GET` without the body (the health check, a file
    /// download: what load balancers and download managers send).
    var answersHEAD = false
    /// Whether a session token that no longer works is ignored rather than refused (`/login`:
    /// a stale token must not stop the user from logging in again).
    var ignoresStaleSession = false
    let handler: Handler
    /// The pattern's segments; a leading `:` marks a parameter.
    let segments: [Substring]

    init(
        _ method: RouteMethod, _ pattern: String, _ access: RouteAccess, body: RouteBody = .json, limitAs limitPath: String? = nil,
        account: RouteAccount? = nil, transactional: TransactionalWrite? = nil, className: String? = nil,
        _ handler: @escaping @Sendable (ParseRoutes, ParseRequest) async throws -> ParseResponse
    ) {
        self.init(method, pattern, access, body, limitPath, account, transactional, className, .api(handler))
    }

    init(
        raw method: RouteMethod, _ pattern: String, _ access: RouteAccess, body: RouteBody = .none,
        _ handler: @escaping @Sendable (ParseRoutes, ParseRequest, Request) async throws -> Response
    ) {
        self.init(method, pattern, access, body, nil, nil, nil, nil, .raw(handler))
    }

    init(
        page method: RouteMethod, _ pattern: String, body: RouteBody = .none, limitAs limitPath: String? = nil, account: RouteAccount? = nil,
        _ handler: @escaping @Sendable (HostedPages, PageRequest) async throws -> Response
    ) {
        self.init(method, pattern, .open, body, limitPath, account, nil, nil, .page(handler))
    }

    private init(
        _ method: RouteMethod, _ pattern: String, _ access: RouteAccess, _ body: RouteBody, _ limitPath: String?, _ account: RouteAccount?,
        _ transactional: TransactionalWrite?, _ className: String?, _ handler: Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.access = access
        self.body = body
        self.limitPath = limitPath
        self.account = account
        self.transactional = transactional
        self.className = className
        self.handler = handler
        self.segments = pattern.split(separator: "/")
    }

    /// Whether the route is a hosted page (answered under `/apps` only).
    var isPage: Bool {
        if case .page = handler { return true }
        return false
    }

    /// This route, not counted by rate limits.
    func uncounted() -> Route {
        var route = self
        route.counted = false
        return route
    }

    /// This route, answering `HEAD` too.
    func answeringHEAD() -> Route {
        var route = self
        route.answersHEAD = true
        return route
    }

    /// This route, ignoring a stale session token.
    func ignoringStaleSession() -> Route {
        var route = self
        route.ignoresStaleSession = true
        return route
    }

    /// The path parameters when `path` matches this route's pattern.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        if let className { parameters["className"] = className }
        for (pattern, value) in zip(segments, path) {
            if pattern.first == ":" {
                parameters[String(pattern.dropFirst())] = value
            } else if pattern != value {
                return nil
            }
        }
        return parameters
    }
}

/// The routes, indexed by their first path segment.
struct RouteIndex: Sendable {
    let routes: [Route]
    private let byFirstSegment: [String: [Route]]

    init(_ routes: [Route]) {
        self.routes = routes
        byFirstSegment = Dictionary(grouping: routes) { $0.segments.first.map(String.init) ?? "" }
    }

    /// The first route (in table order) for `method` and `path`, with its path parameters.
    func find(_ method: RouteMethod, _ path: [String]) -> (Route, [String: String])? {
        guard let candidates = byFirstSegment[path.first ?? ""] else { return nil }
        for route in candidates where route.method == method {
            if let parameters = route.match(path) { return (route, parameters) }
        }
        return nil
    }
}

/// The route a request resolved to: looked up once per request in the table, kept in the
/// request's context, and read by every later stage (the body's kind, the keys, the limits,
/// the page flow, HEAD, the metrics' label). Only a `_method` that names another method looks
/// the route up again.
struct ResolvedRoute: Sendable {
    /// The table's route.
    let route: Route
    /// The values of its `:name` segments (and the class it stands for).
    let parameters: [String: String]

    /// The route for `method` and the path's `segments`, if the table has one: a `HEAD` is the
    /// `GET` of a route that answers `HEAD` (the health check, a file download).
    init?(_ method: HTTPRequest.Method, _ segments: [String]) {
        let routeMethod: RouteMethod
        if method == .head {
            routeMethod = .get
        } else if let known = RouteMethod(method) {
            routeMethod = known
        } else {
            return nil
        }
        self.init(routeMethod, segments)
        if method == .head && !route.answersHEAD { return nil }
    }

    /// The route for a method the request's body named (`_method`).
    init?(_ method: RouteMethod, _ segments: [String]) {
        guard let (route, parameters) = ParseRoutes.index.find(method, segments) else { return nil }
        self.route = route
        self.parameters = parameters
    }

    /// The label the metrics count a request under: the route's pattern as rate limits count
    /// it (`POST /classes/_User` is `/users`), or `unmatched`.
    static func metricsLabel(_ resolved: ResolvedRoute?) -> String {
        guard let route = resolved?.route else { return "unmatched" }
        return route.limitPath ?? route.pattern
    }
}
