package import Logging
import ServiceLifecycle
import Synchronization

/// Per-account work an answer must not wait for: the answer to `/requestPasswordReset` is `{}`
/// whether or not the address is known, and it would still tell by its timing if it waited
/// for the lookup, the token write and the mail's queueing.
///
/// At most `limit` pieces run at once; past that a request is dropped and logged (a flood of
/// reset requests must not pile up unbounded tasks; the person asking can ask again). The work
/// is counted the moment it is started, so a stop that begins right after an answer still
/// waits for it (`BackgroundWorkService`).
package final class BackgroundWork: Sendable {
    let limit: Int
    let logger: Logger
    private struct State {
        var running = 0
        var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    /// Creates the runner: at most `limit` pieces at once, failures logged to `logger`.
    package init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Starts `work` in a task of its own that outlives the request; its failure is logged.
    func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        let admitted = state.withLock { state in
            guard state.running < limit else { return false }
            state.running += 1
            return true
        }
        guard admitted else {
            logger.warning("\(label) dropped: \(limit) account tasks already running")
            return
        }
        Task {
            do {
                try await work()
            } catch {
                logger.error("\(label) failed: \(error)")
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.running -= 1
                guard state.running == 0 else { return [] }
                defer { state.idleWaiters = [:] }
                return Array(state.idleWaiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// How many pieces are running.
    package var running: Int { state.withLock { $0.running } }

    /// Returns once nothing is running, or at once when the caller is cancelled (a forced stop).
    package func idle() async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.running == 0 || Task.isCancelled { return true }
                    state.idleWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.idleWaiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// The account background work as a member of the server's service group, stopped after the
/// requests (which start it) and before the mail queue (which it feeds): a reset mail whose
/// request was answered just before SIGTERM is still written and queued, then sent.
package struct BackgroundWorkService: Service {
    let work: BackgroundWork

    /// Wraps `work`.
    package init(work: BackgroundWork) { self.work = work }

    /// Waits for the stop, then for the work in flight (the group's shutdown deadline bounds it).
    package func run() async throws {
        try? await gracefulShutdown()
        let left = work.running
        await work.idle()
        guard left > 0 else { return }
        // A forced stop (the group's deadline, a second signal) cancels the wait: say what was cut short.
        let unfinished = work.running
        if unfinished > 0 {
            work.logger.warning("stopping with \(unfinished) of \(left) account task(s) unfinished")
        } else {
            work.logger.info("finished \(left) account task(s) before stopping")
        }
    }
}
