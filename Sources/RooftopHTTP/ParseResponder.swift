import Foundation
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
import RooftopCore
package import RooftopServices

/// The Parse REST API as one Hummingbird responder.
///
/// Routes come from the one table (`RouteTable.swift`) rather than Hummingbird's router because
/// `_method` in a POST body changes the method before routing, and because `/batch` items and
/// the hosted pages must pass the very same checks; failures are answered by `ErrorRenderer`.
package struct ParseResponder: HTTPResponder {
    /// The context type.
    package typealias Context = ParseRequestContext

    let config: HTTPConfiguration
    let routes: ParseRoutes

    /// The URL the API serves the stored file `name` at, for `request`'s host (signed when
    /// files are): for pages that link a file without passing through the API.
    package func fileURL(_ name: String, request: Request) -> String { routes.fileURL(name, request: request) }
    let logger: Logger
    let proxyWarning = UntrustedProxyWarning()

    /// Creates the responder.
    package init(
        config: HTTPConfiguration, objects: Objects, schemas: Schemas, aggregates: Aggregates, accounts: Accounts, files: Files,
        functions: CloudFunctions, jobs: JobRunner, webhooks: WebhookRegistry, globalConfig: GlobalConfig, limiter: RateLimiter = .off,
        logger: Logger
    ) {
        self.config = config
        self.routes = ParseRoutes(
            config: config, objects: objects, schemaService: schemas, aggregates: aggregates, accounts: accounts, files: files,
            functions: functions, jobs: jobs, webhooks: webhooks, globalConfig: globalConfig, limiter: limiter)
        self.logger = logger
    }

    /// Answers one HTTP request (routing, auth, errors, CORS and the request log line).
    package func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        var response: Response
        do {
            // Without `X-Forwarded-For` the socket is the client: nothing to check or warn about.
            var clientIP = context.remoteIP
            if let forwardedFor = Self.forwardedFor.flatMap({ request.headers[$0] }) {
                proxyWarning.check(socket: context.remoteIP, forwardedFor: forwardedFor, trusted: config.trustedProxies, logger: logger)
                clientIP = Self.clientIP(socket: context.remoteIP, forwardedFor: forwardedFor, trusted: config.trustedProxies)
            }
            let origin = RequestOrigin(clientIP: clientIP, userAgent: request.headers[.userAgent], caller: .anonymous)
            let expectation = request.headers[.expect]?.lowercased() == "100-continue" ? ContinueResponse(channel: context.channel) : nil
            response = try await handle(request, context: &context, origin: origin, expectation: expectation)
        } catch {
            var logger = self.logger
            logger[metadataKey: "method"] = "\(request.method)"
            logger[metadataKey: "path"] = "\(request.uri.path)"
            response = ErrorRenderer.response(error, logger: logger)
        }
        // HEAD: whatever the answer, no body (a file's HEAD keeps the length GET would send).
        if request.method == .head { response.body = ResponseBody() }
        addCommonHeaders(&response)
        if config.metrics.enabled {
            config.metrics.record(
                method: request.method, route: ResolvedRoute.metricsLabel(context.route), status: Int(response.status.code),
                duration: ContinuousClock.now - start)
        }
        // At Parse's `verbose` level, as Parse Server: the line costs a sixth of a get-by-id.
        if logger.logLevel <= .debug {
            let elapsed = ContinuousClock.now - start
            // Tenths of a millisecond, without Foundation's slow String(format:).
            let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
            // Path only: query strings can carry credentials (GET /login).
            logger.debug("\(request.method) \(request.uri.path) \(response.status.code) \(tenths / 10).\(tenths % 10)ms")
        }
        return response
    }

    /// A request's way through the API, one stage after the other: the mount path; a CORS
    /// preflight; the route, resolved once; a hosted page's own flow; the body and its
    /// `_method`; the keys and the session; the query and the body as the route's arguments;
    /// the rate limits and the route's access; signed file references; the caller the server
    /// logic sees; the handler. `origin` (address, user agent) goes with the request to the use
    /// cases.
    private func handle(_ request: Request, context: inout Context, origin: RequestOrigin, expectation: ContinueResponse?) async throws -> Response {
        guard let segments = mounted(request.uri.path) else { throw HTTPError(.notFound) }
        if request.method == .options { return Response(status: .ok) }
        context.route = ResolvedRoute(request.method, segments)
        if segments.first == "apps" || context.route?.route.isPage == true {
            return try await page(request, segments: segments, resolved: context.route, origin: origin, expectation: expectation)
        }
        var body = try await readBody(request, for: context.route?.route, expectation: expectation)
        var method = context.route?.route.method ?? RouteMethod(request.method)
        // Only a JSON body names a method (an upload's base64 form is the upload's own).
        if method == .post, context.route?.route.body.isJSON ?? true, let override = try Self.methodOverride(&body) {
            method = override
            context.route = ResolvedRoute(override, segments)
        }
        var parseRequest = ParseRequest(
            method: method ?? .get, segments: segments, params: [:], body: [:], principal: .anonymous,
            acceptLanguage: request.headers[.acceptLanguage], origin: origin, headers: request.headers)
        parseRequest.continueResponse = expectation
        let resolved = context.route
        // Keys are checked unless the route is known to need none: an unknown route needs them.
        if resolved.map({ $0.route.access != .open }) ?? true {
            try await authenticate(request, body: &body, into: &parseRequest, ignoringStaleSession: resolved?.route.ignoresStaleSession == true)
        }
        guard let resolved, !resolved.route.isPage else {
            // Counted like a hit, whatever the method: a miss must cost a guesser as much.
            try await routes.check(parseRequest, against: nil, method: request.method.rawValue)
            throw ParseRoutes.unknown(method: method?.rawValue ?? request.method.rawValue, segments: segments)
        }
        let route = resolved.route
        try arguments(request, body: body, of: resolved, into: &parseRequest)
        try await routes.check(parseRequest, against: route)
        if let signed = routes.files.signing, !parseRequest.principal.isMaster, route.method == .post || route.method == .put {
            // Under `fileAccess: signed` a write names a file only through a signed URL it was
            // handed (a batch's items and a function's parameters included).
            try SignedFileURLs(signing: signed, base: "", appId: config.appId).checkReferences(in: .object(body))
        }
        // What triggers and functions are told of the caller, now that it is known; only they
        // read it (the headers' copy would cost every request).
        if await !routes.objects.triggers.isEmpty || !routes.functions.isEmpty { parseRequest.origin.caller = ParseRoutes.caller(of: parseRequest) }
        return try await run(route, parseRequest, request)
    }

    /// The path's segments below the mount path; nil when the path is not under it.
    private func mounted(_ path: String) -> [String]? {
        // The host's `.well-known` files are routes of their own, at the root whatever the mount.
        if path.hasPrefix("/.well-known/") { return path.split(separator: "/").map(String.init) }
        guard path == config.mountPath || path.hasPrefix(config.mountPath + "/") else { return nil }
        return path.dropFirst(config.mountPath.count).split(separator: "/").map(String.init)
    }

    /// The route's arguments: the path's parameters, the query (a GET's or DELETE's body joins
    /// it, as Parse's SDKs send long queries) and the body.
    private func arguments(_ request: Request, body: [String: JSON], of resolved: ResolvedRoute, into parseRequest: inout ParseRequest) throws {
        parseRequest.pathParameters = resolved.parameters
        if let query = request.uri.query, !query.isEmpty { parseRequest.params = QueryString.parse(query) }
        if resolved.route.account == .usernameOrEmail, parseRequest.params["password"] != nil, !config.allowPasswordInQuery {
            throw ParseError(.operationForbidden, "Passwords in the URL are turned off on this server; send them in the request body.")
        }
        if resolved.route.method == .get || resolved.route.method == .delete { parseRequest.params.merge(body) { _, fromBody in fromBody } }
        parseRequest.body = body
    }

    private func run(_ route: Route, _ parseRequest: ParseRequest, _ request: Request) async throws -> Response {
        switch route.handler {
        case .api(let handler):
            var answer = try await handler(routes, parseRequest)
            if routes.files.signing != nil, let signed = routes.signedFileURLs(request) {
                // Every File value of the answer gets a fresh signed URL (SignedFileURLs).
                if let encoded = answer.encoded { answer.encoded = signed.rewrite(encoded) } else { answer.body = signed.rewrite(answer.body) }
            }
            return response(answer, to: request)
        case .raw(let handler): return try await handler(routes, parseRequest, request)
        case .page: throw ParseRoutes.unknown(parseRequest)
        }
    }

    /// The JSON body, read as the route wants it: a route whose body is not JSON (a file
    /// upload) leaves it unread; any other body is a JSON object.
    private func readBody(_ request: Request, for route: Route?, expectation: ContinueResponse?) async throws -> [String: JSON] {
        guard let route, !route.body.isJSON else { return try await readBody(request, expectation: expectation) }
        // The JavaScript SDK's base64 form of an upload: a JSON body carrying the keys and
        // `base64`, and no key header; bounded by the upload limit (in base64).
        if case .stream = route.body, request.headers.value(ParseHeader.applicationId) == nil, request.headers[.authorization] == nil {
            return try await readBody(request, limit: config.maxBodySize + (config.maxUploadSize / 3 + 1) * 4, expectation: expectation)
        }
        return [:]
    }

    /// The method a POST's `_method` names, taken out of the body; nil when it names none.
    private static func methodOverride(_ body: inout [String: JSON]) throws -> RouteMethod? {
        guard let override = body["_method"]?.stringValue else { return nil }
        guard let overridden = RouteMethod(rawValue: override) else { throw ParseError(.invalidJSON, "Invalid _method.") }
        body["_method"] = nil
        return overridden
    }

    /// Keys, then the session: the principal the request acts as.
    private func authenticate(_ request: Request, body: inout [String: JSON], into parseRequest: inout ParseRequest, ignoringStaleSession: Bool)
        async throws
    {
        let credentials = try RequestAuthenticator(config: config).authenticate(
            headers: request.headers, body: &body, clientIP: parseRequest.clientIP)
        parseRequest.sessionToken = credentials.sessionToken
        parseRequest.installationId = credentials.installationId
        parseRequest.masterKeyRejected = credentials.masterKeyRejected
        parseRequest.principal = credentials.isMaster ? .master : .anonymous
        guard let token = credentials.sessionToken, !credentials.isMaster else { return }
        do {
            parseRequest.principal = try await routes.accounts.principal(forToken: token)
            parseRequest.tokenUser = parseRequest.principal.userId
        } catch let error as ParseError where error.code == .invalidSessionToken && ignoringStaleSession {
            // A stale token must not stop the user from logging in again.
        }
    }

    /// A route's answer as an HTTP response; a `Location` becomes absolute.
    private func response(_ answer: ParseResponse, to request: Request) -> Response {
        var answer = answer
        if let location = answer.headers.firstIndex(where: { $0.0 == "Location" }) {
            if let base = config.publicURL {
                answer.headers[location].1 = (base.hasSuffix("/") ? String(base.dropLast()) : base) + answer.headers[location].1
            } else {
                let host = request.head.authority ?? "127.0.0.1"
                answer.headers[location].1 = "http://\(host)\(config.mountPath)\(answer.headers[location].1)"
            }
        }
        var response = ParseResponder.json(answer.encoded ?? JSONWriter.bytes(answer.body), status: HTTPResponse.Status(code: answer.status))
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        return response
    }

    /// Built once: a header name is validated when it is made.
    package static let forwardedFor = HTTPField.Name("X-Forwarded-For")

    /// The socket's address, or — only when that is a trusted proxy — the right-most address in
    /// `X-Forwarded-For` that is not a trusted proxy itself. Computed once per request: the
    /// master-key check, the rate limits and the audit log all use this one address.
    package static func clientIP(socket: String?, forwardedFor: String?, trusted: [String]) -> String? {
        guard let socket, AddressRange.any(trusted, contains: socket), let forwardedFor else { return socket }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // A hop that is not an address (`unknown`, a name) gives no client address at all:
        // falling back to the proxy's own would hand the proxy's privileges (a loopback
        // master key) to whoever is behind it.
        for hop in hops.reversed() where !AddressRange.any(trusted, contains: hop) {
            return AddressRange.bytes(hop) == nil ? nil : hop
        }
        return socket
    }

    private func readBody(_ request: Request, limit: Int? = nil, expectation: ContinueResponse?) async throws -> [String: JSON] {
        let bound = limit ?? config.maxBodySize
        let buffer: ByteBuffer
        do {
            try Self.refuseDeclaredLength(request, limit: bound)
            await expectation?.send()
            // Over the limit: the error renderer answers 413.
            buffer = try await request.body.collect(upTo: bound)
        } catch let error where limit == nil && BodyTooLarge.isTooLarge(error) {
            throw BodyTooLarge(limit: bound)
        }
        let bytes = buffer.readableBytesView
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard case .object(let object) = try JSONParser.parse(bytes) else {
            throw ParseError(.invalidJSON, "Invalid JSON: the body must be an object.")
        }
        try RequestGuard.checkKeywords(.object(object))
        return object
    }

    /// 413 before a byte of the body is read when `Content-Length` declares more than `limit`
    /// (a client could otherwise hold the connection while "sending" gigabytes); the idle
    /// timeout then closes a connection whose client keeps silent.
    static func refuseDeclaredLength(_ request: Request, limit: Int) throws {
        guard let declared = request.headers[.contentLength] else { return }
        // Not a number (or more digits than an Int holds) is as good as too large.
        guard let length = Int(declared), length <= limit else { throw HTTPError(.contentTooLarge) }
    }

    /// CORS on every answer, and `no-store`: API answers are private to their caller, and some
    /// clients' URL caches would otherwise answer one user's request with another's data.
    private func addCommonHeaders(_ response: inout Response) {
        if response.headers[.cacheControl] == nil { response.headers.append(Self.noStore) }
        response.headers[.accessControlAllowOrigin] = config.allowOrigin
        // Made once: a field's value is checked byte by byte when the field is made.
        for field in Self.corsFields { response.headers[fields: field.name] = [field] }
    }

    private static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    private static let corsFields = [
        HTTPField(name: .accessControlAllowMethods, value: "GET,PUT,POST,DELETE,OPTIONS"),
        HTTPField(
            name: .accessControlAllowHeaders,
            value:
                "X-Parse-Master-Key, X-Parse-REST-API-Key, X-Parse-Javascript-Key, X-Parse-Application-Id, X-Parse-Client-Version, X-Parse-Session-Token, X-Requested-With, X-Parse-Revocable-Session, X-Parse-Request-Id, Content-Type, Pragma, Cache-Control"
        ),
        HTTPField(name: .accessControlExposeHeaders, value: "X-Parse-Job-Status-Id, X-Parse-Push-Status-Id"),
    ]

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
