package import RooftopCore
import RooftopStorage

extension Schemas {
    /// How many objects `className` holds without scanning a large table: exact below `cap`,
    /// else the database's estimate or "at least `cap`" (the console's classes page).
    package func estimatedCount(_ className: ClassName, cap: Int = 10_000) async throws -> ObjectCount {
        try await store.estimatedCount(className, cap: cap)
    }
}
