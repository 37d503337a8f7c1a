import Dispatch

/// Runs a call that may block for milliseconds or more (an `fsync`, a database backup) on a
/// dispatch thread, so the event loop that awaits it keeps serving its other connections.
package enum BlockingCall {
    /// `body`'s result, or what it threw, computed off the caller's thread.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result(catching: body)) }
        }
    }
}
