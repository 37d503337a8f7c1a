/// One record of the admin console's own data (admins, admin sessions), kept apart from the
/// Parse classes so that no API route, query or export ever reaches it.
package struct ConsoleRecord: Sendable, Equatable {
    /// What it is (`admin`, `session`).
    package var kind: String
    /// Its key within the kind (an admin's name, a session token's digest).
    package var key: String
    /// Whom it belongs to (an admin's name), so all of one admin's records go together.
    package var owner: String
    /// Its content (JSON text).
    package var value: String
    /// When it stops counting (ms since 1970); `Int64.max` for never.
    package var expiresAt: Int64

    /// Creates a record.
    package init(kind: String, key: String, owner: String, value: String, expiresAt: Int64 = .max) {
        self.kind = kind
        self.key = key
        self.owner = owner
        self.value = value
        self.expiresAt = expiresAt
    }
}

/// The console's records (table `_CONSOLE`). Changes are compare-and-swap (`replace` names the
/// value it expects), so two nodes counting one admin's failed logins or spending one TOTP step
/// cannot both win.
package protocol ConsoleRecordStore: Sendable {
    /// Inserts `record`; false when its kind and key are taken.
    func insertConsoleRecord(_ record: ConsoleRecord) async throws -> Bool
    /// The record of `kind` under `key`.
    func consoleRecord(kind: String, key: String) async throws -> ConsoleRecord?
    /// Records of `kind`, by key, at most `limit`.
    func consoleRecords(kind: String, limit: Int) async throws -> [ConsoleRecord]
    /// Replaces the value and expiry of the record when its value is still `expected`; false
    /// when it changed meanwhile or is gone.
    func replaceConsoleRecord(kind: String, key: String, expected: String, value: String, expiresAt: Int64) async throws -> Bool
    /// Deletes one record; false when there was none.
    func deleteConsoleRecord(kind: String, key: String) async throws -> Bool
    /// Deletes every record of `kind` that `owner` has; how many went.
    func deleteConsoleRecords(kind: String, owner: String) async throws -> Int
    /// Deletes records that expired before `before`; how many went.
    func pruneConsoleRecords(before: Int64) async throws -> Int
}
