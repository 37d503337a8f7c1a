package import Logging
package import RooftopCore

/// `POST /functions/:name`: runs an embedding program's function (Parse's `Cloud.define`).
package struct CloudFunctions: Sendable {
    let handlers: CloudHandlers
    let objects: Objects
    let clock: any ServerClock
    let logger: Logger

    /// Creates the use case over the registered handlers.
    package init(handlers: CloudHandlers, objects: Objects, clock: any ServerClock, logger: Logger) {
        self.handlers = handlers
        self.objects = objects
        self.clock = clock
        self.logger = logger
    }

    /// The names of the registered functions, sorted.
    package var names: [String] { handlers.functions.keys.sorted() }

    /// Runs function `name` with `params` for `caller`; its result.
    ///
    /// 141 "Invalid function" for a name nothing registered, as Parse; a `ParseError` the handler
    /// throws as is; any other failure 141 with a generic message (the detail is logged); 124 when
    /// it outlives its time limit.
    package func call(_ name: String, params: [String: JSON], caller: CloudCaller) async throws -> JSON {
        guard let function = handlers.functions[name] else {
            throw ParseError(.scriptFailed, "Invalid function: \"\(ClassName.printable(name))\"")
        }
        let call = FunctionCall(name: name, params: params, caller: caller, objects: objects)
        return try await BoundedRun.run(
            "function \(name)", limit: function.timeout ?? handlers.timeout, clock: clock, logger: logger,
            failure: ParseError(.scriptFailed, "The function failed.")
        ) { try await function.run(call) }
    }
}
