package import HTTPTypes
package import RooftopCore
package import RooftopServices

/// A request as the routes see it, after keys, aliases and `_method` were dealt with.
///
/// Batch sub-requests are built as values of this type too, so they go through the same routes.
package struct ParseRequest: Sendable {
    /// The effective method (after `_method`).
    package var method: RouteMethod
    /// Path segments below the mount path.
    package var segments: [String]
    /// The route pattern's parameters (`className`, `objectId`, …), set when the route matched.
    package var pathParameters: [String: String] = [:]
    /// Query-string parameters merged with body parameters (for GET-style calls).
    package var params: [String: JSON]
    /// The JSON body object (empty when none).
    package var body: [String: JSON]
    /// Who is calling.
    package var principal: Principal
    /// The session token the request carried, if any.
    package var sessionToken: String? = nil
    /// The user authentication found for `sessionToken` on this very request, just before
    /// routing. Never set on a batch item: an earlier item (a logout) may have ended the session.
    package var tokenUser: String? = nil
    /// The installation id the request carried, if any.
    package var installationId: String? = nil
    /// A master key was given and it is not this server's (the request is a client's).
    package var masterKeyRejected = false
    /// The `Accept-Language` header, for the language of mail a request triggers.
    package var acceptLanguage: String? = nil
    /// Where the request came from (the client's address and user agent; once authenticated,
    /// the caller triggers see): handed to the use cases, which record and tell it.
    package var origin = RequestOrigin()
    /// The HTTP request's headers (server-side handlers see them, as Parse's `request.headers`).
    package var headers: HTTPFields = [:]
    /// Sends `100 Continue` to a client that waits for it (an upload, right before its body is read).
    var continueResponse: ContinueResponse? = nil
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

    /// The client's address (the socket's, or `X-Forwarded-For` through a trusted proxy).
    var clientIP: String? { origin.clientIP }

    /// Credentials and options: the query string for GET, else the body.
    var arguments: [String: JSON] { method == .get ? params : body }
}

/// A route's answer.
package struct ParseResponse: Sendable {
    /// HTTP status code.
    package var status: Int
    /// JSON body.
    package var body: JSON
    /// Extra headers (e.g. `Location`).
    package var headers: [(String, String)]
    /// The body already encoded, when a use case wrote it directly (then `body` is unused).
    package var encoded: [UInt8]?

    /// Creates a response.
    package init(status: Int = 200, body: JSON, headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// A 200 response whose body is already encoded.
    package init(encoded: [UInt8]) {
        self.init(body: .null)
        self.encoded = encoded
    }

    /// The body as a value, for a batch answer that nests it.
    package func json() throws(ParseError) -> JSON {
        guard let encoded else { return body }
        return try JSONParser.parse(encoded)
    }
}
