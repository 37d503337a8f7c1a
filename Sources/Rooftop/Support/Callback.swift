import Dispatch
import Foundation

/// The two other forms of every call, built on its `async` form: completion handlers (on the
/// main queue on Apple platforms, a global queue on Linux) and blocking calls.
enum Callback {
    /// Where completion handlers run.
    static var queue: DispatchQueue {
        #if canImport(Darwin)
            .main
        #else
            .global()
        #endif
    }

    /// Runs `work`, then `block` with its value or its error (as an `NSError` in the `Rooftop` domain).
    static func deliver<T: Sendable>(_ block: (@Sendable (T?, NSError?) -> Void)?, _ work: @escaping @Sendable () async throws -> T) {
        Task {
            do {
                let value = try await work()
                queue.async { block?(value, nil) }
            } catch {
                let failure = RTError.from(error).nsError
                queue.async { block?(nil, failure) }
            }
        }
    }

    /// Runs `work`, then `block` with `true`, or `false` and the error.
    static func deliverSuccess(_ block: (@Sendable (Bool, NSError?) -> Void)?, _ work: @escaping @Sendable () async throws -> Void) {
        deliver({ (value: Bool?, error: NSError?) in block?(value ?? false, error) }) {
            try await work()
            return true
        }
    }

    /// Runs `work`, then `block` with nil, or the error.
    static func deliverError(_ block: (@Sendable (NSError?) -> Void)?, _ work: @escaping @Sendable () async throws -> Void) {
        deliver({ (_: Bool?, error: NSError?) in block?(error) }) {
            try await work()
            return true
        }
    }

    /// Runs `work` and waits for it on the calling thread, which must not be one the work needs:
    /// it runs on the concurrency pool, so any thread but the pool's own is safe.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                box.set(.success(try await work()))
            } catch {
                box.set(.failure(RTError.from(error)))
            }
            done.signal()
        }
        done.wait()
        guard let result = box.get() else { throw RTError(.otherCause, "The call ended without a result.") }
        return try result.get()
    }
}

/// A result handed from a task to a waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, RTError>?

    func set(_ value: Result<T, RTError>) { lock.withLock { result = value } }
    func get() -> Result<T, RTError>? { lock.withLock { result } }
}
