import GRDB
import RooftopStorage

extension SQLiteStore {
    /// One UPSERT: a new or ended window starts at 1, a running one counts up; atomic, since
    /// SQLite has one writer.
    package func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64) {
        try await countRequests([(key, window)], now: now).first ?? (1, now + window)
    }

    /// Every counter in one write transaction.
    package func countRequests(_ counters: [(key: String, window: Int64)], now: Int64) async throws -> [(count: Int, windowEnds: Int64)] {
        let sql = """
            INSERT INTO _RATE_LIMIT (key, windowEnds, count) VALUES (?, ?, 1)
            ON CONFLICT(key) DO UPDATE SET
              count = CASE WHEN windowEnds <= ? THEN 1 ELSE count + 1 END,
              windowEnds = CASE WHEN windowEnds <= ? THEN excluded.windowEnds ELSE windowEnds END
            RETURNING count, windowEnds
            """
        return try await writeTransaction { db in
            try counters.map { key, window in
                let arguments: StatementArguments = [ExactText.rateLimitKey(key), now + window, now, now]
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) else { return (1, now + window) }
                return (row[0] as Int, row[1] as Int64)
            }
        }
    }

    /// Deletes ended windows.
    package func pruneRateLimits(before: Int64) async throws -> Int {
        try await writeTransaction { db in
            try db.execute(sql: "DELETE FROM _RATE_LIMIT WHERE windowEnds < ?", arguments: [before])
            return db.changesCount
        }
    }

    /// One UPSERT that only succeeds when the last run is an interval old (see `DataStore`).
    package func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool {
        let sql = """
            INSERT INTO _JOB (name, lastRun) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET lastRun = excluded.lastRun WHERE _JOB.lastRun <= excluded.lastRun - ?
            RETURNING lastRun
            """
        return try await writeTransaction { db in
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [name, now, PeriodicJob.due(interval)]) != nil
        }
    }
}

extension SQLiteStore {
    /// Stores a single-use record (see `OneTimeStore`).
    package func putOneTime(key: String, value: String, expiresAt: Int64) async throws {
        try await writeTransaction { db in
            try db.execute(
                sql:
                    "INSERT INTO _ONE_TIME (key, value, expiresAt) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expiresAt = excluded.expiresAt",
                arguments: [key, value, expiresAt])
        }
    }

    /// One `DELETE … RETURNING`: the record is gone whoever asks next.
    package func takeOneTime(key: String, now: Int64) async throws -> String? {
        try await writeTransaction { db in
            guard let row = try Row.fetchOne(db, sql: "DELETE FROM _ONE_TIME WHERE key = ? RETURNING value, expiresAt", arguments: [key]) else {
                return nil
            }
            return (row[1] as Int64) > now ? (row[0] as String) : nil
        }
    }

    /// Deletes expired records.
    package func pruneOneTime(before: Int64) async throws -> Int {
        try await writeTransaction { db in
            try db.execute(sql: "DELETE FROM _ONE_TIME WHERE expiresAt < ?", arguments: [before])
            return db.changesCount
        }
    }
}
