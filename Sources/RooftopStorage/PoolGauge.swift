import Synchronization

/// How busy a store's database connections are, as the metrics endpoint shows them.
package struct PoolStatistics: Sendable, Equatable {
    /// Connections the store may hold at once (PostgreSQL's pool size; SQLite's readers plus
    /// its one writer).
    package var capacity: Int
    /// Calls running on a connection now.
    package var inUse: Int
    /// Calls waiting for a connection now.
    package var waiting: Int

    /// Statistics with these counts.
    package init(capacity: Int, inUse: Int, waiting: Int) {
        self.capacity = capacity
        self.inUse = inUse
        self.waiting = waiting
    }
}

/// Counts the calls that wait for a connection and the calls that hold one, with relaxed
/// atomics: a few nanoseconds per database call, read only when the metrics are scraped.
package final class PoolGauge: Sendable {
    private let capacity: Int
    private let inUse = Atomic<Int>(0)
    private let waiting = Atomic<Int>(0)

    /// A gauge for a store that may hold `capacity` connections.
    package init(capacity: Int) { self.capacity = capacity }

    /// The counts now.
    package var statistics: PoolStatistics {
        PoolStatistics(capacity: capacity, inUse: inUse.load(ordering: .relaxed), waiting: waiting.load(ordering: .relaxed))
    }

    /// A call starts waiting for a connection.
    package func startWaiting() { waiting.wrappingAdd(1, ordering: .relaxed) }

    /// A waiting call got its connection.
    package func acquired() {
        waiting.wrappingSubtract(1, ordering: .relaxed)
        inUse.wrappingAdd(1, ordering: .relaxed)
    }

    /// A call ends: it held a connection (`acquired` ran) or gave up waiting.
    package func finished(held: Bool) {
        if held { inUse.wrappingSubtract(1, ordering: .relaxed) } else { waiting.wrappingSubtract(1, ordering: .relaxed) }
    }
}
