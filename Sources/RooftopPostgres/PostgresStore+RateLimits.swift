import PostgresNIO
import RooftopStorage

extension PostgresStore {
    /// One UPSERT: a new or ended window starts at 1, a running one counts up; the row lock makes
    /// concurrent requests on every node count one after another.
    public func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64) {
        let ends = now + window
        let query: PostgresQuery = """
            INSERT INTO "_RATE_LIMIT" ("key", "windowEnds", "count") VALUES (\(key), \(ends), 1)
            ON CONFLICT ("key") DO UPDATE SET
              "count" = CASE WHEN "_RATE_LIMIT"."windowEnds" <= \(now) THEN 1 ELSE "_RATE_LIMIT"."count" + 1 END,
              "windowEnds" = CASE WHEN "_RATE_LIMIT"."windowEnds" <= \(now) THEN excluded."windowEnds" ELSE "_RATE_LIMIT"."windowEnds" END
            RETURNING "count", "windowEnds"
            """
        do {
            for try await (count, windowEnds) in try await client.query(query, logger: logger).decode((Int64, Int64).self) {
                return (Int(count), windowEnds)
            }
            return (1, ends)
        } catch let error as PSQLError {
            throw Self.storageError(error)
        }
    }

    /// Deletes ended windows.
    public func pruneRateLimits(before: Int64) async throws -> Int {
        do {
            var removed = 0
            for try await _ in try await client.query(#"DELETE FROM "_RATE_LIMIT" WHERE "windowEnds" < \#(before) RETURNING 1"#, logger: logger) {
                removed += 1
            }
            return removed
        } catch let error as PSQLError {
            throw Self.storageError(error)
        }
    }

    /// One UPSERT that only succeeds when the last run is an interval old (see `DataStore`).
    public func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool {
        let due = PeriodicJob.due(interval)
        let query: PostgresQuery = """
            INSERT INTO "_JOB" ("name", "lastRun") VALUES (\(name), \(now))
            ON CONFLICT ("name") DO UPDATE SET "lastRun" = excluded."lastRun" WHERE "_JOB"."lastRun" <= excluded."lastRun" - \(due)
            RETURNING "lastRun"
            """
        do {
            for try await _ in try await client.query(query, logger: logger) { return true }
            return false
        } catch let error as PSQLError {
            throw Self.storageError(error)
        }
    }
}
