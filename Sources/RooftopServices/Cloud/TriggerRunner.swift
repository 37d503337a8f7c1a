package import Logging
package import RooftopCore

/// Runs the registered triggers with their time limits: a before-trigger's failure refuses what
/// it runs around (its `ParseError` as is, anything else 141); an after-trigger's failure is
/// logged and changes nothing, since the write it follows is already done.
package struct TriggerRunner: Sendable {
    let triggers: [TriggerKey: CloudTrigger]
    let timeout: Duration
    let clock: (any ServerClock)?
    let logger: Logger

    /// No triggers (the plain `rooftop` server, and the account and object tests).
    package init() {
        triggers = [:]
        timeout = .seconds(30)
        clock = nil
        logger = Logger(label: "rooftop")
    }

    /// The triggers of `handlers`, timed on `clock`.
    package init(_ handlers: CloudHandlers, clock: any ServerClock, logger: Logger) {
        triggers = handlers.triggers
        timeout = handlers.timeout
        self.clock = clock
        self.logger = logger
    }

    /// Whether any trigger is registered (checked first, so a server without handlers pays one
    /// dictionary test per write).
    package var isEmpty: Bool { triggers.isEmpty }

    /// Whether a trigger of `kind` is registered for `className`.
    package func has(_ kind: TriggerKind, _ className: ClassName) -> Bool {
        !triggers.isEmpty && triggers[TriggerKey(kind, className.rawValue)] != nil
    }

    /// Runs the trigger of `event.kind` for `event.className`, if any: the `object` it returns
    /// (unchanged when there is none, or for the kinds that cannot change anything).
    package func run(_ event: TriggerEvent) async throws -> [String: JSON] {
        guard let trigger = triggers[TriggerKey(event.kind, event.className.rawValue)], let clock else { return event.object }
        let what = "\(event.kind.rawValue) trigger of \(event.className.rawValue)"
        let limit = trigger.timeout ?? timeout
        guard event.kind.canRefuse else {
            do {
                _ = try await BoundedRun.run(what, limit: limit, clock: clock, logger: logger, failure: Self.failed) { try await trigger.run(event) }
            } catch {
                logger.error("\(what) failed after the change was made: \(String(reflecting: error))")
            }
            return event.object
        }
        return try await BoundedRun.run(what, limit: limit, clock: clock, logger: logger, failure: Self.failed) { try await trigger.run(event) }
    }

    static let failed = ParseError(.scriptFailed, "A server-side trigger failed.")
}
