import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import RooftopCore
public import RooftopServices

/// The Parse REST API as one Hummingbird responder.
///
/// Routing is done here rather than by Hummingbird's router because `_method` in a POST body
/// changes the method before routing, and because `/batch` must dispatch sub-requests through
/// the very same routes.
public struct ParseResponder: HTTPResponder {
    /// The context type.
    public typealias Context = ParseRequestContext

    let config: HTTPConfiguration
    let routes: ParseRoutes
    let logger: Logger

    /// Creates the responder.
    public init(
        config: HTTPConfiguration, objects: Objects, schemas: Schemas, aggregates: Aggregates, accounts: Accounts, limiter: RateLimiter = .off,
        logger: Logger
    ) {
        self.config = config
        self.routes = ParseRoutes(
            config: config, objects: objects, schemaService: schemas, aggregates: aggregates, accounts: accounts, limiter: limiter)
        self.logger = logger
    }

    /// Answers one HTTP request (routing, auth, errors, CORS and the request log line).
    public func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            let forwardedFor = Self.forwardedFor.flatMap { request.headers[$0] }
            let client = ClientInfo(
                ip: Self.clientIP(socket: context.remoteIP, forwardedFor: forwardedFor, trusted: config.trustedProxies),
                userAgent: request.headers[.userAgent])
            // The audit log reads who is calling from here, deep in the account use cases.
            response = try await ClientInfo.$current.withValue(client) { try await handle(request, context: context) }
        } catch let error as ParseError {
            response = ParseResponder.json(error.body, status: error.httpStatus)
        } catch let error as UnauthorizedError {
            response = ParseResponder.json(["error": .string(error.message)], status: .forbidden)
        } catch let limited as RateLimiter.Limited {
            response = ParseResponder.json(["code": 100, "error": .string(limited.message)], status: .tooManyRequests)
            response.headers[.retryAfter] = String(limited.retryAfter)
        } catch is CancellationError {
            // The stop's grace period ran out (gracefulShutdownTimeout): not a fault.
            logger.warning("request cut short by shutdown", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)"])
            let error = ParseError(.internalServerError, "The server is shutting down.")
            response = ParseResponder.json(error.body, status: error.httpStatus)
        } catch {
            logger.error("request failed", metadata: ["error": "\(error)"])
            response = ParseResponder.json(ParseError.internalError.body, status: .internalServerError)
        }
        addCORS(&response)
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

    private func handle(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        guard path == config.mountPath || path.hasPrefix(config.mountPath + "/") else {
            return ParseResponder.json(["error": "Not found."], status: .notFound)
        }
        if request.method == .options { return Response(status: .ok) }
        let segments = path.dropFirst(config.mountPath.count).split(separator: "/").map(String.init)
        // Pages opened from emailed links: HTML, no application id header, form bodies.
        let clientIP = ClientInfo.current.ip
        if segments.first == "apps" {
            if request.method == .post {
                try await routes.limiter.check(RateLimiter.Request(method: "POST", path: "/" + segments.joined(separator: "/"), clientIP: clientIP))
            }
            return try await HostedPages(accounts: routes.accounts, appId: config.appId, templates: config.pages).respond(request, segments: segments)
        }
        var body = try await readBody(request)
        var method = request.method.rawValue
        if method == "POST", let override = body["_method"]?.stringValue {
            guard ["GET", "PUT", "DELETE", "POST"].contains(override) else { throw ParseError(.invalidJSON, "Invalid _method.") }
            method = override
            body["_method"] = nil
        }
        if segments == ["health"] { return ParseResponder.json(["status": "ok"], status: .ok) }
        let credentials = try RequestAuthenticator(config: config).authenticate(headers: request.headers, body: &body, remoteIP: context.remoteIP)
        var principal = credentials.isMaster ? Principal.master : Principal.anonymous
        if let token = credentials.sessionToken, !credentials.isMaster {
            do {
                principal = try await routes.accounts.principal(forToken: token)
            } catch let error as ParseError where error.code == .invalidSessionToken && segments == ["login"] {
                // A stale token must not stop the user from logging in again.
            }
        }
        var params = QueryString.parse(request.uri.query)
        if method == "GET" || method == "DELETE" { params.merge(body) { _, fromBody in fromBody } }
        let parseRequest = ParseRequest(
            method: method, segments: segments, params: params, body: body, principal: principal, sessionToken: credentials.sessionToken,
            installationId: credentials.installationId, acceptLanguage: request.headers[.acceptLanguage], clientIP: clientIP)
        var answer = try await routes.dispatch(parseRequest)
        if let location = answer.headers.firstIndex(where: { $0.0 == "Location" }) {
            let host = request.head.authority ?? "127.0.0.1"
            answer.headers[location].1 = "http://\(host)\(config.mountPath)\(answer.headers[location].1)"
        }
        var response = ParseResponder.json(answer.encoded ?? JSONWriter.bytes(answer.body), status: HTTPResponse.Status(code: answer.status))
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        return response
    }

    /// Built once: a header name is validated when it is made.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")

    /// The socket's address, or — only when that is a trusted proxy — the right-most address in
    /// `X-Forwarded-For` that is not a trusted proxy itself.
    static func clientIP(socket: String?, forwardedFor: String?, trusted: [String]) -> String? {
        guard let socket, trusted.contains(socket), let forwardedFor else { return socket }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trusted.contains($0) } ?? socket
    }

    private func readBody(_ request: Request) async throws -> [String: JSON] {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: config.maxBodySize)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ParseError(.objectTooLarge, "Request body is too large.")
        } catch is NIOTooManyBytesError {
            throw ParseError(.objectTooLarge, "Request body is too large.")
        }
        let bytes = buffer.readableBytesView
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard case .object(let object) = try JSONParser.parse(bytes) else {
            throw ParseError(.invalidJSON, "Invalid JSON: the body must be an object.")
        }
        try RequestGuard.checkKeywords(.object(object))
        return object
    }

    private func addCORS(_ response: inout Response) {
        response.headers[.accessControlAllowOrigin] = config.allowOrigin
        response.headers[.accessControlAllowMethods] = "GET,PUT,POST,DELETE,OPTIONS"
        response.headers[.accessControlAllowHeaders] =
            "X-Parse-Master-Key, X-Parse-REST-API-Key, X-Parse-Javascript-Key, X-Parse-Application-Id, X-Parse-Client-Version, X-Parse-Session-Token, X-Requested-With, X-Parse-Revocable-Session, X-Parse-Request-Id, Content-Type, Pragma, Cache-Control"
        response.headers[.accessControlExposeHeaders] = "X-Parse-Job-Status-Id, X-Parse-Push-Status-Id"
    }

    static func json(_ body: JSON, status: HTTPResponse.Status) -> Response {
        json(JSONWriter.bytes(body), status: status)
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
