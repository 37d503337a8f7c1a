import PostgresNIO
package import RooftopStorage

extension PostgresStore {
    /// Inserts a console record (see `ConsoleRecordStore`).
    package func insertConsoleRecord(_ record: ConsoleRecord) async throws -> Bool {
        let query: PostgresQuery = """
            INSERT INTO "_CONSOLE" ("kind", "key", "owner", "value", "expiresAt")
            VALUES (\(record.kind), \(record.key), \(record.owner), \(record.value), \(record.expiresAt))
            ON CONFLICT ("kind", "key") DO NOTHING RETURNING 1
            """
        return try await self.query(query) { _ in () }.count == 1
    }

    /// One console record.
    package func consoleRecord(kind: String, key: String) async throws -> ConsoleRecord? {
        let query: PostgresQuery =
            #"SELECT "kind", "key", "owner", "value", "expiresAt" FROM "_CONSOLE" WHERE "kind" = \#(kind) AND "key" = \#(key)"#
        return try await self.query(query, Self.consoleRecord).first
    }

    /// Console records of one kind, by key.
    package func consoleRecords(kind: String, limit: Int) async throws -> [ConsoleRecord] {
        let query: PostgresQuery =
            #"SELECT "kind", "key", "owner", "value", "expiresAt" FROM "_CONSOLE" WHERE "kind" = \#(kind) ORDER BY "key" LIMIT \#(limit)"#
        return try await self.query(query, Self.consoleRecord)
    }

    /// Compare-and-swap of one record's value (the row lock orders racing callers).
    package func replaceConsoleRecord(kind: String, key: String, expected: String, value: String, expiresAt: Int64) async throws -> Bool {
        let query: PostgresQuery = """
            UPDATE "_CONSOLE" SET "value" = \(value), "expiresAt" = \(expiresAt)
            WHERE "kind" = \(kind) AND "key" = \(key) AND "value" = \(expected) RETURNING 1
            """
        return try await self.query(query) { _ in () }.count == 1
    }

    /// Deletes one record.
    package func deleteConsoleRecord(kind: String, key: String) async throws -> Bool {
        try await query(#"DELETE FROM "_CONSOLE" WHERE "kind" = \#(kind) AND "key" = \#(key) RETURNING 1"#) { _ in () }.count == 1
    }

    /// Deletes one owner's records of a kind.
    package func deleteConsoleRecords(kind: String, owner: String) async throws -> Int {
        try await query(#"DELETE FROM "_CONSOLE" WHERE "kind" = \#(kind) AND "owner" = \#(owner) RETURNING 1"#) { _ in () }.count
    }

    /// Deletes expired records.
    package func pruneConsoleRecords(before: Int64) async throws -> Int {
        try await query(#"DELETE FROM "_CONSOLE" WHERE "expiresAt" < \#(before) RETURNING 1"#) { _ in () }.count
    }

    private static func consoleRecord(_ row: PostgresRow) throws -> ConsoleRecord {
        let (kind, key, owner, value, expiresAt) = try row.decode((String, String, String, String, Int64).self)
        return ConsoleRecord(kind: kind, key: key, owner: owner, value: value, expiresAt: expiresAt)
    }
}
