import Foundation
import GRDB
package import RooftopCore
package import RooftopStorage
import Synchronization

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a 2xx answer
/// means the write is committed and durable.
///
/// Reads run concurrently on GRDB's reader pool; writes are short transactions on its writer.
package final class SQLiteStore: CatalogStore {
    let pool: DatabasePool
    /// Calls waiting for and holding GRDB's reader and writer, for the metrics.
    let gauge: PoolGauge
    /// The connections point lookups use on the calling thread.
    let inlineReaders: InlineReaders
    private let isClosed = Atomic<Bool>(false)
    let dialect = SQLiteDialect()
    /// Schemas by class, with their table names, and the `_SCHEMA_VERSION` they were read at.
    let catalogCache = LockedValue<VersionedCatalog?>(nil)

    /// A catalog and the schema version it reflects.
    struct VersionedCatalog: Sendable {
        var catalog: QueryCompiler.Catalog
        var version: Int
    }

    /// Opens (creating if needed) the database at `path` and runs pending migrations;
    /// `inlineReaders` connections serve point lookups on the calling thread (at least one per
    /// event loop, so a loop nearly always finds one free and never waits for the pool).
    package init(path: String, inlineReaders inlineCount: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Reads through a memory map instead of one pread per page: about 3x faster on a
            // large table whose rows are spread over many pages.
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            db.add(function: SQLiteRegex.function)
        }
        config.busyMode = .timeout(10)
        gauge = PoolGauge(capacity: config.maximumReaderCount + 1)
        inlineReaders = InlineReaders(path: path, configuration: config, count: max(1, inlineCount))
        do {
            pool = try DatabasePool(path: path, configuration: config)
            let migrator = SQLiteMigrations.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StorageError.unavailable("the database was migrated by a newer rooftop; upgrade this binary")
            }
            try migrator.migrate(pool)
        } catch {
            throw StorageError.unavailable("cannot open the SQLite database: \(error)")
        }
    }

    /// Checkpoints the WAL into the database file and closes every connection; later calls fail.
    ///
    /// Readers close first so that the writer is the last connection, which lets SQLite remove
    /// the `-wal` and `-shm` files: a cleanly closed data directory is just `data.db`.
    package func close() throws {
        // GRDB traps on a closed pool: only the first call closes.
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { throw StorageError.unavailable("the database is closed") }
        inlineReaders.close()
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        pool.releaseMemory()
        try pool.close()
    }

    /// The database file's path.
    package var path: String { pool.path }

    /// Copies the database to a new file at `path` with SQLite's online backup: a consistent
    /// snapshot while the server keeps reading and writing.
    package func backup(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw StorageError.unavailable("\(path) already exists") }
        let copy = try DatabaseQueue(path: path)
        try pool.backup(to: copy)
        try copy.close()
    }

    // MARK: Schemas

    /// The schema catalog, loaded once and refreshed after schema changes.
    package func catalog() async throws -> QueryCompiler.Catalog {
        if let cached = catalogCache.withLock({ $0 }) { return cached.catalog }
        let loaded = try await onReader(snapshot: true) { db in
            VersionedCatalog(catalog: try SQLiteStore.loadCatalog(db), version: try SQLiteStore.schemaVersion(db))
        }
        remember(loaded)
        return loaded.catalog
    }

    /// Keeps the newest catalog: a reader that loaded before a schema write may finish after it.
    func remember(_ catalog: VersionedCatalog) {
        catalogCache.withLock { cached in
            if cached == nil || cached?.version ?? 0 < catalog.version { cached = catalog }
        }
    }

    static func schemaVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM _SCHEMA_VERSION")) ?? 0
    }

    static func loadCatalog(_ db: Database) throws -> QueryCompiler.Catalog {
        var schemas: [ClassName: ClassSchema] = [:]
        var tables: [ClassName: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT className, tableName, schema FROM _SCHEMA") {
            let schema = try SchemaCoding.decode(className: row[0], json: row[2])
            schemas[schema.className] = schema
            tables[schema.className] = row[1]
        }
        return QueryCompiler.Catalog(schemas: schemas, tables: tables)
    }

    /// Changes a schema in one write transaction (see `DataStore.alterSchema`).
    package func alterSchema(
        _ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema
    ) async throws -> ClassSchema {
        try await writeTransaction { db in
            let current = try SQLiteSchemaWriter.load(className, db: db)
            let next = try change(current?.0)
            if let (old, table) = current { try SQLiteSchemaWriter.dropRemoved(from: old, to: next, table: table, db: db) }
            try SQLiteSchemaWriter.save(next, db: db)
            return next
        }
    }

    /// Drops an empty class and its relation tables.
    package func deleteClass(_ className: ClassName) async throws {
        try await writeTransaction { db in
            try SQLiteSchemaWriter.drop(className, db: db)
        }
    }

    /// GRDB's readers plus its writer, and the calls waiting for and holding them.
    package var poolStatistics: PoolStatistics? { gauge.statistics }

    /// Runs a write transaction, refreshes the catalog if it changed the schema, and maps SQLite
    /// errors.
    ///
    /// GRDB's callback form with a continuation: its `async` form hops through an actor per call.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let gauge = gauge
        let held = LockedValue(false)
        gauge.startWaiting()
        do {
            return try await withCheckedThrowingContinuation { continuation in
                pool.asyncWrite(
                    { [catalogCache] db in
                        held.withLock { $0 = true }
                        gauge.acquired()
                        let value = try body(db)
                        let version = try SQLiteStore.schemaVersion(db)
                        guard catalogCache.withLock({ $0?.version }) != version else { return (value, nil as VersionedCatalog?) }
                        return (value, VersionedCatalog(catalog: try SQLiteStore.loadCatalog(db), version: version))
                    },
                    completion: { [self] _, result in
                        gauge.finished(held: held.withLock { $0 })
                        // On the writer's queue after the commit, so catalogs are remembered in order.
                        if case .success((_, let catalog?)) = result { remember(catalog) }
                        continuation.resume(with: result.map(\.0))
                    })
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StorageError.duplicate(field: SQLiteStore.duplicateField(error), cause: "\(error)")
        } catch let error as DatabaseError {
            throw StorageError.unavailable("\(error)")
        }
    }

    /// The column or expression named in a UNIQUE failure, when it is a document field.
    static func duplicateField(_ error: DatabaseError) -> String? {
        guard let message = error.message, let range = message.range(of: "UNIQUE constraint failed: ") else { return nil }
        let detail = message[range.upperBound...]
        // Expression indexes report `index '<table>_unique_<field>'`.
        if let field = IndexPlan.uniqueField(in: detail) { return field }
        return detail.split(separator: ".").last.map(String.init)
    }

    // MARK: Queries

    /// Runs a query compiled with the caller's access.
    package func find(_ request: FindRequest) async throws -> [StoredObject] {
        let catalog = try await catalog()
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: catalog)
        return try await read(statement, inline: request.isPointLookup) { row in try SQLiteStore.object(from: row) }
    }

    /// Runs a query compiled with the caller's access; documents stay text.
    package func findDocuments(_ request: FindRequest) async throws -> [StoredDocument] {
        let catalog = try await catalog()
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: catalog)
        return try await read(statement, inline: request.isPointLookup) { row in try SQLiteStore.document(from: row) }
    }

    /// Counts a query's matches with the caller's access.
    package func count(_ request: FindRequest) async throws -> Int {
        let catalog = try await catalog()
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: catalog, count: true)
        return try await read(statement) { row in row[0] as Int? ?? 0 }.first ?? 0
    }

    /// SQLite's plan for a find (`EXPLAIN QUERY PLAN`), one line per step: for operators and
    /// benchmarks, to show which index a query uses.
    package func queryPlan(_ request: FindRequest) async throws -> [String] {
        let catalog = try await catalog()
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: catalog)
        let sql = "EXPLAIN QUERY PLAN " + statement.sql
        let bindings = statement.bindings
        return try await onReader { db in
            // EXPLAIN reads no table, so it would not notice a schema change made by the
            // writer; touching the schema first makes this connection load the current one.
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            return try Row.fetchAll(db, sql: sql, arguments: SQLiteStore.arguments(bindings)).map { $0["detail"] as String? ?? "" }
        }
    }

    /// Runs a query on a reader (GRDB's `async` read only applies when everything crossing the
    /// closure is `Sendable`, hence the mapping of rows inside it). An `inline` query (a point
    /// lookup by primary key) runs on the calling thread.
    private func read<T: Sendable>(
        _ statement: SQLFragment, inline: Bool = false, _ transform: @escaping @Sendable (Row) throws -> T
    ) async throws -> [T] {
        let bindings = statement.bindings
        let sql = statement.sql
        // One statement is atomic on its own, so no BEGIN/COMMIT; statements are prepared
        // once per connection, since the same query shapes repeat.
        let body: @Sendable (Database) throws -> [T] = { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(SQLiteStore.arguments(bindings))
            // A cursor's rows read the statement's columns in place (`fetchAll` copies each
            // row into boxed values first); `transform` keeps values, never the row.
            let rows = try Row.fetchCursor(statement)
            var results: [T] = []
            while let row = try rows.next() { results.append(try transform(row)) }
            return results
        }
        do {
            return inline ? try onReaderHere(body) : try await onReader(body)
        } catch let error as DatabaseError {
            throw StorageError.unavailable("\(error)")
        }
    }

    /// Runs `body` on the calling thread, for an index lookup of a few microseconds: handing it
    /// to a reader thread and back costs two wake-ups and two context switches, more than the
    /// lookup itself (docs/benchmarks.md, "Thread hops"). It uses a free inline connection, else
    /// one of GRDB's readers, which is free at once unless every reader is busy with a longer
    /// query; WAL readers never wait for the writer. (The gauge counts the pool's readers only:
    /// an inline read never waits.)
    func onReaderHere<T>(_ body: (Database) throws -> T) throws -> T {
        try inlineReaders.read(body) { try onPoolReaderHere(body) }
    }

    private func onPoolReaderHere<T>(_ body: (Database) throws -> T) throws -> T {
        gauge.startWaiting()
        var held = false
        defer { gauge.finished(held: held) }
        return try pool.unsafeRead { db in
            gauge.acquired()
            held = true
            return try body(db)
        }
    }

    /// Runs `body` on one of GRDB's reader connections, never on a Swift concurrency thread.
    ///
    /// GRDB's callback form with a continuation: its `async` form hops through two actors per
    /// call, which cost a third of the CPU of a get-by-id (docs/benchmarks.md). `snapshot` wraps
    /// `body` in a read transaction, for reads of more than one statement.
    func onReader<T: Sendable>(snapshot: Bool = false, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let gauge = gauge
        gauge.startWaiting()
        return try await withCheckedThrowingContinuation { continuation in
            let run: @Sendable (Result<Database, any Error>) -> Void = { result in
                gauge.acquired()
                continuation.resume(with: Result { try body(result.get()) })
                gauge.finished(held: true)
            }
            if snapshot { pool.asyncRead(run) } else { pool.asyncUnsafeRead(run) }
        }
    }

    static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(
            values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let i): i.databaseValue
                case .real(let d): d.databaseValue
                case .text(let s), .json(let s): s.databaseValue
                case .bool(let b): (b ? 1 : 0).databaseValue
                }
            })
    }

    static func document(from row: Row) throws -> StoredDocument {
        guard let id: String = row[0], let created: String = row[1], let updated: String = row[2], let data: String = row[5] else {
            throw StorageError.corrupt("a stored row is missing columns")
        }
        return StoredDocument(objectId: id, createdAt: created, updatedAt: updated, readers: row[3], writers: row[4], document: data)
    }

    static func object(from row: Row) throws -> StoredObject {
        try document(from: row).decoded()
    }
}
