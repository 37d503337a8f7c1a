package import RooftopCore

/// Where a request came from: the client's address and user agent, the console admin acting,
/// and the caller server logic is told about. Built once per request at the edge (the API, a
/// hosted page, the console) and handed to the use cases as a value: the audit log, the session
/// devices and the security notices record it, triggers see its caller. `server` is the server
/// acting for itself (a job, a schedule, maintenance).
package struct RequestOrigin: Sendable {
    /// The client's address (the socket's, or the one a trusted proxy named).
    package var clientIP: String?
    /// The `User-Agent` header.
    package var userAgent: String?
    /// The console admin acting, when the request came through the console: every event the
    /// use cases record on its behalf carries the admin's name.
    package var admin: String?
    /// The request as triggers and functions see it: filled in once the keys and the session are
    /// known, and only while server logic is registered (only it reads the caller; copying the
    /// headers would cost every request).
    package var caller: CloudCaller

    /// Creates an origin.
    package init(clientIP: String? = nil, userAgent: String? = nil, admin: String? = nil, caller: CloudCaller = .server) {
        self.clientIP = clientIP
        self.userAgent = userAgent
        self.admin = admin
        self.caller = caller
    }

    /// The server itself: no client, the master key.
    package static let server = RequestOrigin()

    /// The same origin, with triggers told the caller acts with `principal`.
    package func acting(as principal: Principal) -> RequestOrigin {
        var origin = self
        origin.caller.principal = principal
        return origin
    }
}
