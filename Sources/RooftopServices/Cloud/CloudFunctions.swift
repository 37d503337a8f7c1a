package import Logging
package import RooftopCore

/// `POST /functions/:name`: runs an embedding program's function (Parse's `Cloud.define`).
package struct CloudFunctions: Sendable {
    let handlers: CloudHandlers
    let objects: Objects
    let webhooks: WebhookRegistry?
    let clock: any ServerClock
    let logger: Logger

    /// Creates the use case over the registered handlers and the webhooks of `/hooks`.
    package init(handlers: CloudHandlers, objects: Objects, webhooks: WebhookRegistry? = nil, clock: any ServerClock, logger: Logger) {
        self.handlers = handlers
        self.objects = objects
        self.webhooks = webhooks
        self.clock = clock
        self.logger = logger
    }

    /// Whether no function is registered in code (webhook functions take their caller from
    /// the call itself).
    package var isEmpty: Bool { handlers.functions.isEmpty }

    /// Whether the server's code defines function `name`.
    package func defines(_ name: String) -> Bool { handlers.functions[name] != nil }

    /// The names of the registered functions, sorted.
    package var names: [String] { handlers.functions.keys.sorted() }

    /// Runs function `name` with `params` for the request from `origin`; its result.
    ///
    /// 141 "Invalid function" for a name nothing registered, as Parse; a `ParseError` the handler
    /// throws as is; any other failure 141 with a generic message (the detail is logged); 124 when
    /// it outlives its time limit.
    package func call(_ name: String, params: [String: JSON], origin: RequestOrigin) async throws -> JSON {
        // The handler's own reads and writes are told the same caller (their triggers).
        let call = FunctionCall(name: name, params: params, caller: origin.caller, objects: objects.serving(origin))
        guard let function = handlers.functions[name] else {
            let url: String?
            do {
                url = try await webhooks?.functionURL(name)
            } catch {
                throw WebhookRegistry.unreadable
            }
            guard let webhooks, let url else {
                throw ParseError(.scriptFailed, "Invalid function: \"\(ClassName.printable(name))\"")
            }
            return try await BoundedRun.run(
                "webhook function \(name)", limit: handlers.timeout, clock: clock, logger: logger, failure: WebhookRegistry.failed
            ) { try await webhooks.callFunction(url, call) }
        }
        return try await BoundedRun.run(
            "function \(name)", limit: function.timeout ?? handlers.timeout, clock: clock, logger: logger,
            failure: ParseError(.scriptFailed, "The function failed.")
        ) { try await function.run(call) }
    }
}
