import Foundation

/// A value behind a lock, for small shared caches.
package final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
