import PostgresNIO
import RooftopStorage

extension PostgresStore {
    /// One UPSERT: a new or ended window starts at 1, a running one counts up; the row lock makes
    /// concurrent requests on every node count one after another.
    package func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64) {
        let rows = try await self.query(Self.countQuery(key: key, window: window, now: now)) { row in try row.decode((Int64, Int64).self) }
        guard let (count, windowEnds) = rows.first else { return (1, now + window) }
        return (Int(count), windowEnds)
    }

    /// Every counter on one connection, in one transaction.
    package func countRequests(_ counters: [(key: String, window: Int64)], now: Int64) async throws -> [(count: Int, windowEnds: Int64)] {
        if counters.count == 1, let (key, window) = counters.first { return [try await countRequest(key: key, window: window, now: now)] }
        return try await transaction { [logger] connection in
            var results: [(count: Int, windowEnds: Int64)] = []
            for (key, window) in counters {
                var counted: (count: Int, windowEnds: Int64) = (1, now + window)
                let rows = try await connection.query(Self.countQuery(key: key, window: window, now: now), logger: logger)
                for try await (count, windowEnds) in rows.decode((Int64, Int64).self) { counted = (Int(count), windowEnds) }
                results.append(counted)
            }
            return results
        }
    }

    /// One UPSERT of a counter: a new or ended window starts at 1, a running one counts up.
    static func countQuery(key: String, window: Int64, now: Int64) -> PostgresQuery {
        let ends = now + window
        let key = ExactText.rateLimitKey(key)
        return """
            INSERT INTO "_RATE_LIMIT" ("key", "windowEnds", "count") VALUES (\(key), \(ends), 1)
            ON CONFLICT ("key") DO UPDATE SET
              "count" = CASE WHEN "_RATE_LIMIT"."windowEnds" <= \(now) THEN 1 ELSE "_RATE_LIMIT"."count" + 1 END,
              "windowEnds" = CASE WHEN "_RATE_LIMIT"."windowEnds" <= \(now) THEN excluded."windowEnds" ELSE "_RATE_LIMIT"."windowEnds" END
            RETURNING "count", "windowEnds"
            """
    }

    /// Deletes ended windows.
    package func pruneRateLimits(before: Int64) async throws -> Int {
        try await query(#"DELETE FROM "_RATE_LIMIT" WHERE "windowEnds" < \#(before) RETURNING 1"#) { _ in () }.count
    }

    /// One UPSERT that only succeeds when the last run is an interval old (see `DataStore`).
    package func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool {
        let due = PeriodicJob.due(interval)
        let query: PostgresQuery = """
            INSERT INTO "_JOB" ("name", "lastRun") VALUES (\(name), \(now))
            ON CONFLICT ("name") DO UPDATE SET "lastRun" = excluded."lastRun" WHERE "_JOB"."lastRun" <= excluded."lastRun" - \(due)
            RETURNING "lastRun"
            """
        return try await self.query(query) { _ in () }.isEmpty == false
    }
}

extension PostgresStore {
    /// Stores a single-use record (see `OneTimeStore`).
    package func putOneTime(key: String, value: String, expiresAt: Int64) async throws {
        let query: PostgresQuery = """
            INSERT INTO "_ONE_TIME" ("key", "value", "expiresAt") VALUES (\(key), \(value), \(expiresAt))
            ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value", "expiresAt" = excluded."expiresAt"
            RETURNING 1
            """
        _ = try await self.query(query) { _ in () }
    }

    /// One `DELETE … RETURNING`: the row lock lets exactly one of two racing callers have it.
    package func takeOneTime(key: String, now: Int64) async throws -> String? {
        let query: PostgresQuery = #"DELETE FROM "_ONE_TIME" WHERE "key" = \#(key) RETURNING "value", "expiresAt""#
        let rows = try await self.query(query) { row in try row.decode((String, Int64).self) }
        guard let (value, expiresAt) = rows.first, expiresAt > now else { return nil }
        return value
    }

    /// Deletes expired records.
    package func pruneOneTime(before: Int64) async throws -> Int {
        try await query(#"DELETE FROM "_ONE_TIME" WHERE "expiresAt" < \#(before) RETURNING 1"#) { _ in () }.count
    }
}
