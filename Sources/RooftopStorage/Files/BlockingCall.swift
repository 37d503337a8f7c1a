import Dispatch

/// Runs a call that may block for milliseconds (an `fsync`) on a dispatch thread, so the
/// event loop that awaits it keeps serving its other connections meanwhile.
enum BlockingCall {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: body()) }
        }
    }
}
