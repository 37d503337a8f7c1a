// What an embedding program names in its handlers (JSON, ParseError) comes with the library:
// RooftopCore is the package's shared vocabulary, not a product of its own.
@_exported public import RooftopCore
package import RooftopServices

/// The server-side logic a Swift program adds to Rooftop: Parse's Cloud Code, typed, in the
/// server's process.
///
/// ```swift
/// import RooftopServer
///
/// @main struct MyServer {
///     static func main() async {
///         var cloud = CloudCode()
///         cloud.define("hello", rules: FunctionRules(requireUser: true)) { request in
///             ["greeting": .string("Hello, \(request.userId ?? "")")]
///         }
///         await RooftopCommandLine.main(cloud: cloud)
///     }
/// }
/// ```
///
/// The program then runs every command `rooftop` runs (`serve`, `config`, `export` …) with the
/// same configuration and data directory; `rooftop` itself is this library with no handlers.
/// A handler must not trap: Swift code that traps takes the whole server down. Throw a
/// ``ParseError`` to answer the client with its code and message; any other error is answered
/// with 141 and a generic message, its detail only in the server's log.
public struct CloudCode: Sendable {
    package var handlers = CloudHandlers()

    /// No handlers yet.
    public init() {}

    /// The names of the functions defined so far, sorted.
    public var functionNames: [String] { handlers.functions.keys.sorted() }

    /// Defines the function `name`, which clients call with `POST /functions/<name>` (Parse's
    /// `Parse.Cloud.define`); what `handler` returns is the answer's `result`.
    ///
    /// - Parameters:
    ///   - name: the function's name; defining it again replaces it.
    ///   - timeout: how long it may run before its request fails with 124 and the handler is
    ///     cancelled; `nil` for the server's `handlerTimeout` (30 s unless configured).
    ///   - rules: checks that run before the handler (Parse's validator): a signed-in user, the
    ///     master key, typed fields; a failure is 142 and the handler does not run.
    ///   - handler: the function.
    public mutating func define(
        _ name: String, timeout: Duration? = nil, rules: FunctionRules = FunctionRules(),
        _ handler: @escaping @Sendable (FunctionRequest) async throws -> JSON
    ) {
        handlers.functions[name] = CloudFunction(timeout: timeout) { call in
            var request = FunctionRequest(call)
            request.params = try rules.check(request.params, caller: call.caller.principal)
            return try await handler(request)
        }
    }

    /// The handlers of the program that called `RooftopCommandLine.main(cloud:)` (none for
    /// `rooftop`): read by `serve` in the same task.
    @TaskLocal package static var current = CloudCode()
}
