package import RooftopCore
import RooftopSQLite
package import RooftopStorage

/// A real store with a hook on every read and on every write: to count reads, to make them fail
/// as a broken disk would, or to hold writes. Everything else goes straight to the store.
package struct ObservedStore: DataStore {
    package let inner: any DataStore
    package var beforeFind: @Sendable (FindRequest) throws -> Void = { _ in }
    package var beforeWrite: @Sendable ([WriteOperation]) async throws -> Void = { _ in }

    /// `inner` with hooks on its reads and writes.
    package init(
        inner: any DataStore, beforeFind: @escaping @Sendable (FindRequest) throws -> Void = { _ in },
        beforeWrite: @escaping @Sendable ([WriteOperation]) async throws -> Void = { _ in }
    ) {
        self.inner = inner
        self.beforeFind = beforeFind
        self.beforeWrite = beforeWrite
    }

    package func schema(_ className: ClassName) async throws -> ClassSchema? { try await inner.schema(className) }
    package func allSchemas() async throws -> [ClassSchema] { try await inner.allSchemas() }
    package func alterSchema(_ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema) async throws -> ClassSchema {
        try await inner.alterSchema(className, change)
    }
    package func deleteClass(_ className: ClassName) async throws { try await inner.deleteClass(className) }
    package func find(_ request: FindRequest) async throws -> [StoredObject] {
        try beforeFind(request)
        return try await inner.find(request)
    }
    package func count(_ request: FindRequest) async throws -> Int { try await inner.count(request) }
    package func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await beforeWrite(operations)
        return try await inner.write(operations)
    }
    package func write(_ group: WriteGroup) async throws -> WriteGroupOutcome {
        try await beforeWrite(group.operations)
        return try await inner.write(group)
    }
    package func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64) {
        try await inner.countRequest(key: key, window: window, now: now)
    }
    package func pruneRateLimits(before: Int64) async throws -> Int { try await inner.pruneRateLimits(before: before) }
    package func putOneTime(key: String, value: String, expiresAt: Int64) async throws {
        try await inner.putOneTime(key: key, value: value, expiresAt: expiresAt)
    }
    package func takeOneTime(key: String, now: Int64) async throws -> String? { try await inner.takeOneTime(key: key, now: now) }
    package func pruneOneTime(before: Int64) async throws -> Int { try await inner.pruneOneTime(before: before) }
    package func insertConsoleRecord(_ record: ConsoleRecord) async throws -> Bool { try await inner.insertConsoleRecord(record) }
    package func consoleRecord(kind: String, key: String) async throws -> ConsoleRecord? { try await inner.consoleRecord(kind: kind, key: key) }
    package func consoleRecords(kind: String, limit: Int) async throws -> [ConsoleRecord] { try await inner.consoleRecords(kind: kind, limit: limit) }
    package func replaceConsoleRecord(kind: String, key: String, expected: String, value: String, expiresAt: Int64) async throws -> Bool {
        try await inner.replaceConsoleRecord(kind: kind, key: key, expected: expected, value: value, expiresAt: expiresAt)
    }
    package func deleteConsoleRecord(kind: String, key: String) async throws -> Bool { try await inner.deleteConsoleRecord(kind: kind, key: key) }
    package func deleteConsoleRecords(kind: String, owner: String) async throws -> Int {
        try await inner.deleteConsoleRecords(kind: kind, owner: owner)
    }
    package func pruneConsoleRecords(before: Int64) async throws -> Int { try await inner.pruneConsoleRecords(before: before) }
    package var cacheBus: any CacheBus { inner.cacheBus }
    package func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool {
        try await inner.claimJob(name, every: interval, now: now)
    }
}
