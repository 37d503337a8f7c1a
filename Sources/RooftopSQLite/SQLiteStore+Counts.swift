import GRDB
package import RooftopCore
import RooftopStorage

extension SQLiteStore {
    /// Counts at most `cap` rows (a `LIMIT` inside the count): SQLite keeps no row estimate, and
    /// a full `count(*)` reads every page of a large table; reaching the cap answers
    /// `atLeast(cap)`. The table's name comes from the catalog.
    package func estimatedCount(_ className: ClassName, cap: Int) async throws -> ObjectCount {
        guard let table = try await catalog().tables[className] else { return .exact(0) }
        let sql = "SELECT count(*) FROM (SELECT 1 FROM \(dialect.quote(table)) LIMIT ?)"
        let limit = max(cap, 1)
        let counted = try await onReader { db in try Int.fetchOne(db, sql: sql, arguments: [limit]) ?? 0 }
        return counted >= limit ? .atLeast(limit) : .exact(counted)
    }
}
