public import RooftopCore

/// A request as the routes see it, after keys, aliases and `_method` were dealt with.
///
/// Batch sub-requests are built as values of this type too, so they go through the same routes.
public struct ParseRequest: Sendable {
    /// The effective method (after `_method`).
    public var method: RouteMethod
    /// Path segments below the mount path.
    public var segments: [String]
    /// The route pattern's parameters (`className`, `objectId`, …), set when the route matched.
    public var pathParameters: [String: String] = [:]
    /// Query-string parameters merged with body parameters (for GET-style calls).
    public var params: [String: JSON]
    /// The JSON body object (empty when none).
    public var body: [String: JSON]
    /// Who is calling.
    public var principal: Principal
    /// The session token the request carried, if any.
    public var sessionToken: String? = nil
    /// The installation id the request carried, if any.
    public var installationId: String? = nil
    /// The `Accept-Language` header, for the language of mail a request triggers.
    public var acceptLanguage: String? = nil
    /// The client's address (the socket's, or `X-Forwarded-For` through a trusted proxy).
    public var clientIP: String? = nil
}

extension ParseRequest {
    /// The `:className` path parameter, validated.
    func className() throws(ParseError) -> ClassName {
        try ClassName(pathParameters["className"] ?? "")
    }

    /// The `:objectId` path parameter; 101 for a value no object can have.
    func objectId() throws(ParseError) -> String {
        guard let id = pathParameters["objectId"], ObjectId.isPlausible(id) else { throw ParseError.objectNotFound }
        return id
    }

    /// Credentials and options: the query string for GET, else the body.
    var arguments: [String: JSON] { method == .get ? params : body }
}

/// A route's answer.
public struct ParseResponse: Sendable {
    /// HTTP status code.
    public var status: Int
    /// JSON body.
    public var body: JSON
    /// Extra headers (e.g. `Location`).
    public var headers: [(String, String)]
    /// The body already encoded, when a use case wrote it directly (then `body` is unused).
    public var encoded: [UInt8]?

    /// Creates a response.
    public init(status: Int = 200, body: JSON, headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// A 200 response whose body is already encoded.
    public init(encoded: [UInt8]) {
        self.init(body: .null)
        self.encoded = encoded
    }

    /// The body as a value, for a batch answer that nests it.
    public func json() throws(ParseError) -> JSON {
        guard let encoded else { return body }
        return try JSONParser.parse(encoded)
    }
}
