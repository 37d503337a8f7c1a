import Hummingbird

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
