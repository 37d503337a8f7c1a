package import Logging
package import RooftopCore
import RooftopStorage

/// Runs an embedding program's handler with a time limit and Parse's error rules.
///
/// The handler runs in a task of its own: when the limit passes the caller gets its answer at
/// once and the task is cancelled (cooperatively: a handler that never awaits runs on, but no
/// request waits for it). A thrown `ParseError` reaches the client as is; anything else is
/// logged and answered with `failure`, so no stack trace or internal message leaks.
package enum BoundedRun {
    /// Runs `body` for at most `limit` on `clock`.
    package static func run<Value: Sendable>(
        _ what: String, limit: Duration, clock: any ServerClock, logger: Logger, failure: ParseError,
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = await race(limit: limit, clock: clock, body)
        switch outcome {
        case .finished(let value): return value
        case .timedOut:
            logger.warning("\(what) did not finish within \(limit); its request failed and the handler was cancelled")
            throw timedOut
        case .failed(let error as ParseError): throw error
        case .failed(let error as CancellationError): throw error
        case .failed(let error):
            logger.error("\(what) failed: \(String(reflecting: error))")
            throw failure
        }
    }

    /// The answer to a handler, or a webhook, that ran past its time (124).
    static let timedOut = ParseError(.timeout, "The server-side handler did not finish in time.")

    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case failed(any Error)
        case timedOut
    }

    /// The first of the handler's end and the limit; the other is cancelled and not awaited.
    static func race<Value: Sendable>(
        limit: Duration, clock: any ServerClock, _ body: @escaping @Sendable () async throws -> Value
    ) async -> Outcome<Value> {
        let slot = LockedValue<CheckedContinuation<Outcome<Value>, Never>?>(nil)
        let handler = LockedValue<Task<Void, Never>?>(nil)
        let timer = LockedValue<Task<Void, Never>?>(nil)
        // Set when the request itself is cancelled, even before the tasks exist.
        let abandoned = LockedValue(false)
        @Sendable func finish(_ outcome: Outcome<Value>) {
            let continuation = slot.withLock { slot in
                defer { slot = nil }
                return slot
            }
            continuation?.resume(returning: outcome)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                slot.withLock { $0 = continuation }
                if abandoned.withLock({ $0 }) {
                    finish(.failed(CancellationError()))
                    return
                }
                // The timer first, so a handler that ends at once always finds it to cancel.
                timer.withLock { task in
                    task = Task {
                        guard (try? await clock.sleep(for: limit)) != nil else { return }
                        finish(.timedOut)
                        handler.withLock { $0?.cancel() }
                    }
                }
                handler.withLock { task in
                    // The embedding program's code runs on the cooperative pool, never on the
                    // connection's event loop the request is served from: a handler that blocks
                    // holds one pool thread, not every connection of a loop.
                    task = Task(executorPreference: globalConcurrentExecutor) {
                        do { finish(.finished(try await body())) } catch { finish(.failed(error)) }
                        timer.withLock { $0?.cancel() }
                    }
                }
            }
        } onCancel: {
            // The request itself was abandoned (the client went away, the server stops): it gets
            // its answer now, whether or not the handler heeds the cancellation.
            abandoned.withLock { $0 = true }
            handler.withLock { $0?.cancel() }
            timer.withLock { $0?.cancel() }
            finish(.failed(CancellationError()))
        }
    }
}
