package import Logging

/// Hands messages to a transport in the background, so the request that triggered a mail never
/// waits for it and never fails because of it.
///
/// A temporary failure is retried with exponential backoff (1 s, 2 s, 4 s, … up to
/// `maxAttempts`); permanent failures and exhausted retries are logged and counted. The queue
/// lives in memory: messages still waiting when the process stops are lost (logged at
/// shutdown, after `finish(within:)` gave them a last chance), which is acceptable for
/// verification and reset links, which users can request again.
package actor MailQueue {
    /// Delivery counters, for logs, tests and the admin views.
    package struct Counters: Sendable, Equatable {
        /// Messages delivered.
        package var sent = 0
        /// Messages given up on.
        package var failed = 0
        /// Attempts that failed temporarily and were retried.
        package var retried = 0
        /// Messages not yet delivered or given up on.
        package var pending = 0

        /// Creates counters.
        package init(sent: Int = 0, failed: Int = 0, retried: Int = 0, pending: Int = 0) {
            self.sent = sent
            self.failed = failed
            self.retried = retried
            self.pending = pending
        }
    }

    let transport: any MailTransport
    let maxAttempts: Int
    let firstDelay: Duration
    let logger: Logger
    private(set) var counters = Counters()
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextTask = 0

    /// Creates a queue over `transport`; `firstDelay` doubles after each temporary failure.
    package init(transport: any MailTransport, maxAttempts: Int = 6, firstDelay: Duration = .seconds(1), logger: Logger) {
        self.transport = transport
        self.maxAttempts = max(1, maxAttempts)
        self.firstDelay = firstDelay
        self.logger = logger
    }

    /// Queues `message` and returns without waiting for its delivery.
    package func send(_ message: MailMessage) {
        counters.pending += 1
        let id = nextTask
        nextTask += 1
        tasks[id] = Task { await self.run(message, id: id) }
    }

    /// The counters now.
    package func currentCounters() -> Counters { counters }

    /// Waits until every queued message is delivered or given up on (tests, shutdown).
    package func drain() async {
        while let task = tasks.values.first { await task.value }
    }

    /// At shutdown: waits up to `limit` for queued messages, then gives up on the rest (their
    /// retries are cancelled) and returns how many were lost, for the log.
    package func finish(within limit: Duration) async -> Int {
        let deadline = ContinuousClock.now + limit
        // A cancelled caller (a forced stop) has no time left to give: give up at once rather
        // than spin on sleeps that return immediately.
        while !tasks.isEmpty && ContinuousClock.now < deadline && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let lost = tasks.count
        for task in tasks.values { task.cancel() }
        return lost
    }

    private func run(_ message: MailMessage, id: Int) async {
        var delay = firstDelay
        for attempt in 1...maxAttempts {
            do {
                try await transport.deliver(message)
                counters.sent += 1
                finish(id)
                return
            } catch {
                let mailError = error as? MailError ?? MailError(temporary: true, "\(error)")
                guard mailError.isTemporary, attempt < maxAttempts else {
                    counters.failed += 1
                    logger.error("mail to a recipient was not delivered", metadata: ["attempts": "\(attempt)", "error": "\(mailError)"])
                    finish(id)
                    return
                }
                counters.retried += 1
                logger.warning("mail delivery failed; retrying", metadata: ["attempt": "\(attempt)", "in": "\(delay)", "error": "\(mailError)"])
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    // Cancelled at shutdown.
                    counters.failed += 1
                    finish(id)
                    return
                }
                delay *= 2
            }
        }
    }

    private func finish(_ id: Int) {
        counters.pending -= 1
        tasks[id] = nil
    }
}
