/// How many objects a class holds, found without scanning a large table: exact below a cap,
/// else "at least the cap" or the database's own estimate (PostgreSQL's planner statistics).
package enum ObjectCount: Sendable, Equatable {
    /// Counted exactly (fewer than the cap).
    case exact(Int)
    /// At least this many; counting stopped there.
    case atLeast(Int)
    /// The database's estimate, not a count (it may be stale until the table is analyzed).
    case about(Int)
}
