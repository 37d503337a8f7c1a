package import RooftopCore

/// The storage port: everything the services need from a database.
///
/// Access control is part of each request (`Access`, `AccessScope`) and compiled into the SQL of
/// the adapter, so a row the caller may not see never leaves the database.
package protocol DataStore: RateLimitStore, OneTimeStore, ConsoleRecordStore {
    /// The schema of `className`, if the class exists.
    func schema(_ className: ClassName) async throws -> ClassSchema?
    /// Every class's schema.
    func allSchemas() async throws -> [ClassSchema]
    /// Changes a class's schema in one transaction and returns the result.
    ///
    /// `change` receives the current schema (nil when the class does not exist) and returns the
    /// next one. Fields it removes are deleted from every object; indexes it removes are dropped;
    /// new pointer fields and requested indexes are created.
    func alterSchema(
        _ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema
    ) async throws -> ClassSchema
    /// Deletes an empty class (255 if it still has objects).
    func deleteClass(_ className: ClassName) async throws

    /// Runs a query.
    func find(_ request: FindRequest) async throws -> [StoredObject]
    /// Runs a query and returns the rows as stored, documents still JSON text: for answers that
    /// need no rewriting, which are then written to the wire without being parsed.
    func findDocuments(_ request: FindRequest) async throws -> [StoredDocument]
    /// Counts a query's matches, ignoring limit and skip.
    func count(_ request: FindRequest) async throws -> Int
    /// The database's plan for a find, one line per step: which indexes it uses.
    func queryPlan(_ request: FindRequest) async throws -> [String]
    /// How many objects `className` holds, reading at most `cap` rows of it (the console's
    /// classes page): a class missing from the catalog counts 0. The table name comes from the
    /// catalog, never from the caller.
    func estimatedCount(_ className: ClassName, cap: Int) async throws -> ObjectCount
    /// Performs writes in one transaction: all succeed or none does.
    ///
    /// An object that does not exist or that `access` may not write fails the group with 101.
    func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome]
    /// Performs a group's writes, then its trims and one-time exchanges, in one transaction.
    func write(_ group: WriteGroup) async throws -> WriteGroupOutcome

    /// How this store's nodes tell each other that caches are stale.
    var cacheBus: any CacheBus { get }
    /// How busy the store's connections are now; nil for a store without a pool.
    var poolStatistics: PoolStatistics? { get }
    /// Claims the run of periodic job `name` due every `interval` ms: true for exactly one
    /// caller per interval, however many nodes ask (ms since 1970 in `now`).
    func claimJob(_ name: String, every interval: Int64, now: Int64) async throws -> Bool
}

extension DataStore {
    /// One node: no other to tell.
    package var cacheBus: any CacheBus { LocalCacheBus() }

    /// Not counted.
    package var poolStatistics: PoolStatistics? { nil }

    /// For stores that cannot explain their queries.
    package func queryPlan(_ request: FindRequest) async throws -> [String] {
        throw StorageError.unavailable("this store cannot show query plans")
    }

    /// Through `find`, for stores without a faster way.
    package func findDocuments(_ request: FindRequest) async throws -> [StoredDocument] {
        try await find(request).map(StoredDocument.init)
    }
}
