import GRDB
package import RooftopStorage

extension SQLiteStore {
    /// Inserts a console record (see `ConsoleRecordStore`).
    package func insertConsoleRecord(_ record: ConsoleRecord) async throws -> Bool {
        try await writeTransaction { db in
            try db.execute(
                sql: "INSERT INTO _CONSOLE (kind, key, owner, value, expiresAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT(kind, key) DO NOTHING",
                arguments: [record.kind, record.key, record.owner, record.value, record.expiresAt])
            return db.changesCount == 1
        }
    }

    /// One console record, read on a reader: every change is a compare-and-swap, so a read that
    /// is a moment old only makes that swap fail, and pages never queue on the one writer.
    package func consoleRecord(kind: String, key: String) async throws -> ConsoleRecord? {
        try await onReader { db in
            try Row.fetchOne(db, sql: "SELECT kind, key, owner, value, expiresAt FROM _CONSOLE WHERE kind = ? AND key = ?", arguments: [kind, key])
                .map(Self.consoleRecord)
        }
    }

    /// Console records of one kind, by key.
    package func consoleRecords(kind: String, limit: Int) async throws -> [ConsoleRecord] {
        try await onReader { db in
            try Row.fetchAll(
                db, sql: "SELECT kind, key, owner, value, expiresAt FROM _CONSOLE WHERE kind = ? ORDER BY key LIMIT ?", arguments: [kind, limit]
            )
            .map(Self.consoleRecord)
        }
    }

    /// Compare-and-swap of one record's value.
    package func replaceConsoleRecord(kind: String, key: String, expected: String, value: String, expiresAt: Int64) async throws -> Bool {
        try await writeTransaction { db in
            try db.execute(
                sql: "UPDATE _CONSOLE SET value = ?, expiresAt = ? WHERE kind = ? AND key = ? AND value = ?",
                arguments: [value, expiresAt, kind, key, expected])
            return db.changesCount == 1
        }
    }

    /// Deletes one record.
    package func deleteConsoleRecord(kind: String, key: String) async throws -> Bool {
        try await writeTransaction { db in
            try db.execute(sql: "DELETE FROM _CONSOLE WHERE kind = ? AND key = ?", arguments: [kind, key])
            return db.changesCount == 1
        }
    }

    /// Deletes one owner's records of a kind.
    package func deleteConsoleRecords(kind: String, owner: String) async throws -> Int {
        try await writeTransaction { db in
            try db.execute(sql: "DELETE FROM _CONSOLE WHERE kind = ? AND owner = ?", arguments: [kind, owner])
            return db.changesCount
        }
    }

    /// Deletes expired records.
    package func pruneConsoleRecords(before: Int64) async throws -> Int {
        try await writeTransaction { db in
            try db.execute(sql: "DELETE FROM _CONSOLE WHERE expiresAt < ?", arguments: [before])
            return db.changesCount
        }
    }

    private static func consoleRecord(_ row: Row) -> ConsoleRecord {
        ConsoleRecord(kind: row[0], key: row[1], owner: row[2], value: row[3], expiresAt: row[4])
    }
}
