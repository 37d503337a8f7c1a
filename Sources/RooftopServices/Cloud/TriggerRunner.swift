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
    /// The trigger webhooks registered through `/hooks`.
    package var webhooks: WebhookRegistry?

    /// No triggers (the plain `rooftop` server, and the account and object tests).
    package init() {
        triggers = [:]
        timeout = .seconds(30)
        clock = nil
        logger = Logger(label: "rooftop")
    }

    /// The triggers of `handlers` and the hooks of `webhooks`, timed on `clock`.
    package init(_ handlers: CloudHandlers, webhooks: WebhookRegistry? = nil, clock: any ServerClock, logger: Logger) {
        // As in Parse, `_Session` takes afterLogout only: sessions are written by the account
        // rules alone, so any other `_Session` trigger would never run.
        for key in handlers.triggers.keys where key.className == "_Session" && key.kind != .afterLogout {
            logger.warning("the \(key.kind.rawValue) trigger of _Session never runs: _Session takes afterLogout only")
        }
        triggers = handlers.triggers
        timeout = handlers.timeout
        self.webhooks = webhooks
        self.clock = clock
        self.logger = logger
    }

    /// Whether no trigger is registered, in code or as a webhook (checked first, so a server
    /// without any pays a dictionary test and a cached list per write).
    package var isEmpty: Bool {
        get async {
            guard triggers.isEmpty else { return false }
            guard let webhooks else { return true }
            // Unreadable hooks are not "no hooks": the caller then takes the trigger path,
            // where a before-trigger refuses.
            guard let hooks = try? await webhooks.all() else { return false }
            return !hooks.contains { $0.className != nil }
        }
    }

    /// Whether a trigger of `kind` is registered for `className` in code (find triggers are
    /// never webhooks).
    package func inCode(_ kind: TriggerKind, _ className: ClassName) -> Bool {
        !triggers.isEmpty && triggers[TriggerKey(kind, className.rawValue)] != nil
    }

    /// Whether a trigger of `kind` is registered for `className`, in code or as a webhook.
    package func has(_ kind: TriggerKind, _ className: ClassName) async -> Bool {
        if inCode(kind, className) { return true }
        // Find and login triggers are never webhooks: a read asks nothing of the hooks' cache.
        guard let webhooks, WebhookRegistry.hookableTriggers.contains(kind) else { return false }
        do {
            return try await webhooks.triggerURL(kind, className.rawValue) != nil
        } catch {
            // Unknown is treated as "there is one": `run` then refuses a before-trigger's write.
            return true
        }
    }

    /// Runs the trigger of `event.kind` for `event.className`, if any: the `object` it returns
    /// (unchanged when there is none, or for the kinds that cannot change anything). A trigger
    /// in code comes before a webhook for the same class and kind.
    package func run(_ event: TriggerEvent) async throws -> [String: JSON] {
        guard let clock else { return event.object }
        let trigger: CloudTrigger
        if let inCode = triggers[TriggerKey(event.kind, event.className.rawValue)] {
            trigger = inCode
        } else if let webhooks {
            let url: String?
            do {
                url = try await webhooks.triggerURL(event.kind, event.className.rawValue)
            } catch {
                logger.error("the webhooks could not be read for \(event.kind.rawValue) of \(event.className.rawValue): \(error)")
                if event.kind.canRefuse { throw WebhookRegistry.unreadable }
                return event.object
            }
            guard let url else { return event.object }
            trigger = CloudTrigger { event in try await webhooks.callTrigger(url, event) }
        } else {
            return event.object
        }
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
