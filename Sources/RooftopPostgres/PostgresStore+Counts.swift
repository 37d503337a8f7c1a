import PostgresNIO
package import RooftopCore
import RooftopStorage

extension PostgresStore {
    /// Counts at most `cap` rows; past the cap, the planner's estimate (`pg_class.reltuples`,
    /// kept by autovacuum and ANALYZE) answers `about(n)` without reading the table, or
    /// `atLeast(cap)` while the table has never been analyzed. The table's name comes from the
    /// catalog and reaches PostgreSQL quoted, or bound as a value.
    package func estimatedCount(_ className: ClassName, cap: Int) async throws -> ObjectCount {
        guard let table = try await catalog().tables[className] else { return .exact(0) }
        let limit = max(cap, 1)
        let quoted = dialect.quote(table)
        let counted =
            try await query(
                PostgresQuery(
                    unsafeSQL: "SELECT count(*) FROM (SELECT 1 FROM \(quoted) LIMIT $1) AS capped", binds: Self.bindings([.integer(Int64(limit))]))
            ) { row in
                try row.decode(Int64.self)
            }.first ?? 0
        if counted < limit { return .exact(Int(counted)) }
        let estimate: PostgresQuery = "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(\(quoted))"
        let rows = try await query(estimate) { row in try row.decode(Int64.self) }
        guard let tuples = rows.first, tuples >= Int64(limit) else { return .atLeast(limit) }
        return .about(Int(tuples))
    }
}
