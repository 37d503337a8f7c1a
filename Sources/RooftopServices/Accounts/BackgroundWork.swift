import Logging

/// Per-account work an answer must not wait for: the answer to `/requestPasswordReset` is `{}`
/// whether or not the address is known, and it would still tell by its timing if it waited
/// for the lookup, the token write and the mail's queueing.
///
/// At most `limit` pieces run at once; past that a request is dropped and logged (a flood of
/// reset requests must not pile up unbounded tasks; the person asking can ask again).
actor BackgroundWork {
    let limit: Int
    let logger: Logger
    private var running = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Starts `work` in a task of its own that outlives the request; its failure is logged.
    nonisolated func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        Task { await self.run(label, work) }
    }

    private func run(_ label: String, _ work: @escaping @Sendable () async throws -> Void) async {
        guard running < limit else {
            logger.warning("\(label) dropped: \(limit) account tasks already running")
            return
        }
        running += 1
        do {
            try await work()
        } catch {
            logger.error("\(label) failed: \(error)")
        }
        running -= 1
        if running == 0 {
            for waiter in idleWaiters { waiter.resume() }
            idleWaiters = []
        }
    }

    /// Returns once nothing is running (for shutdown and tests).
    func idle() async {
        guard running > 0 else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }
}
