package import RooftopCore

/// Who called a server-side handler, and how: what Parse gives Cloud Code as `request`.
package struct CloudCaller: Sendable {
    /// The caller's rights: the master key, a signed-in user with its roles, or the public.
    package var principal: Principal
    /// The session token the request carried.
    package var sessionToken: String?
    /// The installation id the request carried.
    package var installationId: String?
    /// The client's address (the socket's, or the one a trusted proxy named).
    package var clientIP: String?
    /// The request's headers, names in lower case; never the master key.
    package var headers: [String: String]

    /// Creates a caller.
    package init(
        principal: Principal, sessionToken: String? = nil, installationId: String? = nil, clientIP: String? = nil, headers: [String: String] = [:]
    ) {
        self.principal = principal
        self.sessionToken = sessionToken
        self.installationId = installationId
        self.clientIP = clientIP
        self.headers = headers
    }

    /// The server itself (a job, a schedule): the master key, no request.
    package static let server = CloudCaller(principal: .master)
    /// A request's caller before its keys and session are known.
    package static let anonymous = CloudCaller(principal: .anonymous)
}

/// One call of a cloud function (`POST /functions/:name`).
package struct FunctionCall: Sendable {
    /// The function's name.
    package var name: String
    /// The JSON parameters (the request's body).
    package var params: [String: JSON]
    /// Who called.
    package var caller: CloudCaller
    /// The object use cases, for the handler's own reads and writes.
    package var objects: Objects
}

/// A registered cloud function.
package struct CloudFunction: Sendable {
    /// How long it may run; `nil`: the server's default (`CloudHandlers.timeout`).
    package var timeout: Duration?
    /// The handler: its result is the answer's `result`.
    package var run: @Sendable (FunctionCall) async throws -> JSON

    /// Creates a function.
    package init(timeout: Duration? = nil, run: @escaping @Sendable (FunctionCall) async throws -> JSON) {
        self.timeout = timeout
        self.run = run
    }
}

/// Every server-side handler an embedding program registered: the Swift side of Parse's Cloud
/// Code. Empty for the plain `rooftop` executable.
package struct CloudHandlers: Sendable {
    /// Functions by name.
    package var functions: [String: CloudFunction] = [:]
    /// Triggers by kind and class.
    package var triggers: [TriggerKey: CloudTrigger] = [:]
    /// Background jobs by name.
    package var jobs: [String: CloudJob] = [:]
    /// How long a handler without its own limit may run before its request fails (124).
    package var timeout: Duration = .seconds(30)

    /// No handlers.
    package init() {}

    /// Registrations that could never run, each said as Parse Server refuses it: sessions are
    /// written by the account use cases, not through the object path where save, delete and
    /// find triggers run, so `_Session` takes `afterLogout` only. `serve` refuses to start with any.
    package var problems: [String] {
        triggers.keys.filter { $0.className == ClassName.session.rawValue && $0.kind != .afterLogout }
            .map { "\($0.kind.rawValue) on _Session: Only the afterLogout trigger is allowed for the _Session class." }.sorted()
    }
}
