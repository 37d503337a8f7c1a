import RooftopCore
import RooftopSQLite
import RooftopStorage

/// A real store with a hook on every read and on every write: to count reads, to make them fail
/// as a broken disk would, or to hold writes. Everything else goes straight to the store.
struct ObservedStore: DataStore {
    let inner: any DataStore
    var beforeFind: @Sendable (FindRequest) throws -> Void = { _ in }
    var beforeWrite: @Sendable ([WriteOperation]) async -> Void = { _ in }

    func schema(_ className: ClassName) async throws -> ClassSchema? { try await inner.schema(className) }
    func allSchemas() async throws -> [ClassSchema] { try await inner.allSchemas() }
    func alterSchema(_ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema) async throws -> ClassSchema {
        try await inner.alterSchema(className, change)
    }
    func deleteClass(_ className: ClassName) async throws { try await inner.deleteClass(className) }
    func find(_ request: FindRequest) async throws -> [StoredObject] {
        try beforeFind(request)
        return try await inner.find(request)
    }
    func count(_ request: FindRequest) async throws -> Int { try await inner.count(request) }
    func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        await beforeWrite(operations)
        return try await inner.write(operations)
    }
    func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64) {
        try await inner.countRequest(key: key, window: window, now: now)
    }
    func pruneRateLimits(before: Int64) async throws -> Int { try await inner.pruneRateLimits(before: before) }
    func putOneTime(key: String, value: String, expiresAt: Int64) async throws {
        try await inner.putOneTime(key: key, value: value, expiresAt: expiresAt)
    }
    func takeOneTime(key: String, now: Int64) async throws -> String? { try await inner.takeOneTime(key: key, now: now) }
    func pruneOneTime(before: Int64) async throws -> Int { try await inner.pruneOneTime(before: before) }
    func insertConsoleRecord(_ record: ConsoleRecord) async throws -> Bool { try await inner.insertConsoleRecord(record) }
    func consoleRecord(kind: String, key: String) async throws -> ConsoleRecord? { try await inner.consoleRecord(kind: kind, key: key) }
    func consoleRecords(kind: String, limit: Int) async throws -> [ConsoleRecord] { try await inner.consoleRecords(kind: kind, limit: limit) }
    func replaceConsoleRecord(kind: String, key: String, expected: String, value: String, expiresAt: Int64) async throws -> Bool {
        try await inner.replaceConsoleRecord(kind: kind, key: key, expected: expected, value: value, expiresAt: expiresAt)
    }
    func deleteConsoleRecord(kind: String, key: String) async throws -> Bool { try await inner.deleteConsoleRecord(kind: kind, key: key) }
    func deleteConsoleRecords(kind: String, owner: String) async throws -> Int { try await inner.deleteConsoleRecords(kind: kind, owner: owner) }
    func pruneConsoleRecords(before: Int64) async throws -> Int { try await inner.pruneConsoleRecords(before: before) }
    var cacheBus: any CacheBus { inner.cacheBus }
    func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool {
        try await inner.claimJob(name, every: interval, now: now)
    }
}
