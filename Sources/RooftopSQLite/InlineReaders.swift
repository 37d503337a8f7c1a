import Foundation
import GRDB
import Synchronization

/// Read-only connections that point lookups use on the calling thread, one caller at a time
/// each, outside GRDB's reader pool.
///
/// A read through `DatabasePool.unsafeRead` synchronises on the pool's barrier queue, a
/// semaphore, a dispatch group and a lock, then on the reader's queue, and runs
/// `PRAGMA schema_version` (a statement with its own WAL read lock) before the query: about as
/// much CPU as the lookup itself (docs/benchmarks.md, "Above the floor"). Here a caller claims a
/// free connection with one compare-and-exchange, and when every one is taken it is told so and
/// uses the pool: a caller never waits for another.
///
/// No schema check before a read: the statements name their columns, SQLite re-prepares a
/// statement whose tables changed, and GRDB's schema introspection is never used on these
/// connections. Each statement runs in autocommit, so it sees every commit made before it.
final class InlineReaders: Sendable {
    private final class Slot: @unchecked Sendable {
        // @unchecked: `queue` is only touched by the caller that holds `claimed`.
        let claimed = Atomic<Bool>(false)
        var queue: DatabaseQueue?
    }

    private let slots: [Slot]
    private let closed = Atomic<Bool>(false)
    private let path: String
    private let configuration: Configuration

    /// `count` connections to the database at `path`, opened on first use with `configuration`
    /// made read-only.
    init(path: String, configuration: Configuration, count: Int) {
        var readOnly = configuration
        readOnly.readonly = true
        self.path = path
        self.configuration = readOnly
        slots = (0..<max(1, count)).map { _ in Slot() }
    }

    /// Runs `body` on a free connection, or `otherwise` when none is free (or none can be
    /// opened, or the connections are closed).
    func read<T>(_ body: (Database) throws -> T, otherwise: () throws -> T) throws -> T {
        for slot in slots where slot.claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            defer { slot.claimed.store(false, ordering: .releasing) }
            guard !closed.load(ordering: .acquiring), let queue = slot.queue ?? open(slot) else { break }
            return try queue.unsafeRead(body)
        }
        return try otherwise()
    }

    private func open(_ slot: Slot) -> DatabaseQueue? {
        slot.queue = try? DatabaseQueue(path: path, configuration: configuration)
        return slot.queue
    }

    /// Closes every connection once its current read ends; later reads use `otherwise`. Only
    /// the first call does anything (a second would wait for slots the first keeps).
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for slot in slots {
            // A read holds a slot for microseconds; this runs once, when the store closes.
            while !slot.claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                Thread.sleep(forTimeInterval: 0.001)
            }
            try? slot.queue?.close()
            slot.queue = nil
        }
    }
}
