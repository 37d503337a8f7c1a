import RooftopStorage

/// One value read from the database and kept in memory while the cache bus is live, dropped
/// when any node changes it (Parse Config, the webhooks). While the bus is down nothing is
/// kept: another node's change could not be heard.
final class BusCache<Value: Sendable>: Sendable {
    private let state = LockedValue(State())

    struct State {
        var value: Value?
        /// Bumped by every invalidation: a read that began before one must not fill the cache.
        var generation = 0
    }

    /// The cached value, or `load`'s (kept when `live`).
    func value(live: Bool, load: () async throws -> Value) async throws -> Value {
        let (cached, generation) = state.withLock { ($0.value, $0.generation) }
        if live, let cached { return cached }
        let loaded = try await load()
        if live { state.withLock { if $0.generation == generation { $0.value = loaded } } }
        return loaded
    }

    /// Drops the value.
    func invalidate() {
        state.withLock {
            $0.value = nil
            $0.generation += 1
        }
    }
}
