import Foundation
package import Logging
import PostgresNIO
package import RooftopCore
package import RooftopStorage
import ServiceLifecycle

/// The store for several nodes: PostgreSQL through postgres-nio's connection pool.
///
/// Run it as a service (`run()` keeps the pool alive), then call `prepare()` before the first
/// request: it checks the connection and runs pending migrations.
package final class PostgresStore: CatalogStore, Service {
    let client: PostgresClient
    let logger: Logger
    let dialect = PostgresDialect()
    /// Schemas by class, with their table names, and the `_SCHEMA_VERSION` they were read at.
    let catalogCache = LockedValue(CatalogCache())
    let bus: PostgresCacheBus
    let url: PostgresURL
    /// The longest a database call may take, connection wait included.
    let timeout: Duration
    /// How long a call waits for a pooled connection before checking that the database accepts
    /// connections at all (see `leased`).
    let connectWait: Duration
    /// When a direct connection to the database last failed.
    let refusedAt = LockedValue<ContinuousClock.Instant?>(nil)
    /// Calls waiting for and holding connections, for the metrics.
    let gauge: PoolGauge

    /// A catalog and the schema version it reflects.
    struct VersionedCatalog: Sendable {
        var catalog: QueryCompiler.Catalog
        var version: Int64
    }

    /// The cached catalog, and how many times the schema changed under it (a cache bus event):
    /// a read that began before a change must not put back what it read.
    struct CatalogCache: Sendable {
        var current: VersionedCatalog?
        var invalidations = 0

        /// Keeps `loaded`, read since the `invalidations`-th change, if nothing changed since
        /// and it is newer than what is kept.
        mutating func offer(_ loaded: VersionedCatalog, readSince: Int) {
            guard readSince == invalidations, (current?.version ?? .min) < loaded.version else { return }
            current = loaded
        }

        /// Forgets the catalog after a schema change.
        mutating func invalidate() {
            current = nil
            invalidations += 1
        }
    }

    /// A store on the database `url` describes; a call that gets no answer within `timeout`
    /// (the database is down or overloaded) fails, and so does one that gets no connection
    /// within about `connectWait` while the database refuses connections.
    package init(url: PostgresURL, logger: Logger, timeout: Duration = .seconds(15), connectWait: Duration = .seconds(1)) {
        self.timeout = timeout
        self.connectWait = connectWait
        client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
        gauge = PoolGauge(capacity: url.configuration.options.maximumConnections)
        self.url = url
        self.logger = logger
        bus = PostgresCacheBus(client: client, configuration: url.connection, logger: logger, timeout: timeout)
        bus.onEvent { [catalogCache] event in
            if event == .schema || event == .everything { catalogCache.withLock { $0.invalidate() } }
        }
    }

    /// `LISTEN`/`NOTIFY` between the nodes on this database.
    package var cacheBus: any CacheBus { bus }

    /// The pool's size and the calls waiting for and holding its connections.
    package var poolStatistics: PoolStatistics? { gauge.statistics }

    /// Keeps the connection pool and the cache bus's listener running until the task is cancelled.
    package func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.bus.listen() }
        }
    }

    /// Connects and migrates; fails with `StorageError.unavailable` when the database can't be
    /// reached or refuses (the operator sees why).
    package func prepare() async throws {
        do {
            // One direct connection first: the pool would keep retrying a refused connection
            // instead of saying why.
            let probe = try await PostgresConnection.connect(configuration: url.connection, id: 1, logger: logger)
            try await probe.close()
            try await PostgresMigrations.migrate(client, logger: logger)
        } catch {
            throw StorageError.unavailable("cannot use the PostgreSQL database \(url.redacted): \(Self.describe(error))")
        }
    }

    // MARK: Schemas

    /// The schema catalog, loaded once and refreshed after schema changes.
    package func catalog() async throws -> QueryCompiler.Catalog {
        if let cached = catalogCache.withLock({ $0.current }) { return cached.catalog }
        return try await reloadCatalog()
    }

    /// Reads the catalog from the database and keeps it if it is the newest seen.
    ///
    /// The schemas and their version are read from one snapshot (`REPEATABLE READ`): read by two
    /// statements under PostgreSQL's default isolation, a class committed between them was
    /// missing from a catalog that carried its version, and that stale catalog was kept.
    @discardableResult
    func reloadCatalog() async throws -> QueryCompiler.Catalog {
        let readSince = catalogCache.withLock { $0.invalidations }
        let loaded = try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: self.logger)
            return VersionedCatalog(
                catalog: try await Self.loadCatalog(connection, self.logger), version: try await Self.schemaVersion(connection, self.logger))
        }
        catalogCache.withLock { $0.offer(loaded, readSince: readSince) }
        return loaded.catalog
    }

    static func schemaVersion(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        for try await version in try await connection.query(#"SELECT "version" FROM "_SCHEMA_VERSION""#, logger: logger).decode(Int64.self) {
            return version
        }
        return 0
    }

    static func loadCatalog(_ connection: PostgresConnection, _ logger: Logger) async throws -> QueryCompiler.Catalog {
        var schemas: [ClassName: ClassSchema] = [:]
        var tables: [ClassName: String] = [:]
        let rows = try await connection.query(#"SELECT "className", "tableName", "schema" FROM "_SCHEMA""#, logger: logger)
        for try await (className, table, json) in rows.decode((String, String, String).self) {
            let schema = try SchemaCoding.decode(className: className, json: json)
            schemas[schema.className] = schema
            tables[schema.className] = table
        }
        return QueryCompiler.Catalog(schemas: schemas, tables: tables)
    }

    /// Changes a schema in one transaction (see `DataStore.alterSchema`).
    package func alterSchema(
        _ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema
    ) async throws -> ClassSchema {
        try await writeTransaction { writer in
            try await writer.lock(className)
            let current = try await writer.load(className)
            let next = try change(current?.0)
            if let (old, table) = current { try await writer.dropRemoved(from: old, to: next, table: table) }
            try await writer.save(next)
            return next
        }
    }

    /// Drops an empty class and its relation tables.
    package func deleteClass(_ className: ClassName) async throws {
        try await writeTransaction { writer in
            try await writer.lock(className)
            try await writer.drop(className)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on one pooled connection; any error rolls it back and is
    /// thrown as it was (postgres-nio's own helper wraps it).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased { [logger] connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// A transaction that may change the schema, with a schema writer on its connection. The
    /// catalog is reloaded when the schema version moved (here or on another node); the other
    /// nodes hear of it only when this transaction changed the schema, so nodes catching up
    /// never set each other off.
    func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresSchemaWriter) async throws -> T) async throws -> T {
        let changed = LockedValue(false)
        let (value, version) = try await transaction { [logger] connection in
            (
                try await body(PostgresSchemaWriter(connection: connection, logger: logger, changed: changed)),
                try await Self.schemaVersion(connection, logger)
            )
        }
        if catalogCache.withLock({ $0.current?.version }) != version { try await reloadCatalog() }
        if changed.withLock({ $0 }) { await bus.publish(.schema) }
        return value
    }

    /// Unique violations name their index (`<table>_unique_<field>`); anything else means the
    /// database failed.
    static func storageError(_ error: PSQLError) -> any Error {
        let state = error.serverInfo?[.sqlState]
        if state == "23505" {
            let constraint = error.serverInfo?[.constraintName] ?? ""
            let field = IndexPlan.uniqueField(in: constraint)
            return StorageError.duplicate(field: field, cause: describe(error))
        }
        if state == "2201B" { return ParseError(.invalidQuery, "Invalid regular expression.") }
        return StorageError.unavailable(describe(error))
    }

    /// The server's message when there is one (postgres-nio's description hides it).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return "\(error.code): \(message)" }
        return "\(error.code)\(error.underlying.map { " (\($0))" } ?? "")"
    }

    // MARK: Queries

    /// Runs a query compiled with the caller's access.
    package func find(_ request: FindRequest) async throws -> [StoredObject] {
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: try await catalogKnowing(request.className))
        return try await rows(statement) { row in try Self.object(from: row) }
    }

    /// Runs a query compiled with the caller's access; documents stay text.
    package func findDocuments(_ request: FindRequest) async throws -> [StoredDocument] {
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: try await catalogKnowing(request.className))
        return try await rows(statement) { row in try Self.document(from: row) }
    }

    /// Counts a query's matches with the caller's access.
    package func count(_ request: FindRequest) async throws -> Int {
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: try await catalogKnowing(request.className), count: true)
        return try await rows(statement) { row in Int(try row.decode(Int64.self)) }.first ?? 0
    }

    /// PostgreSQL's plan for a find (`EXPLAIN`), one line per step, with sequential scans
    /// discouraged so that a tiny table still shows which index the query can use.
    package func queryPlan(_ request: FindRequest) async throws -> [String] {
        let statement = try QueryCompiler.compile(request, dialect: dialect, catalog: try await catalogKnowing(request.className))
        var fragment = SQLFragment("EXPLAIN " + statement.sql)
        fragment.bindings = statement.bindings
        let explain = Self.query(fragment)
        return try await transaction { [logger] connection in
            try await connection.query("SET LOCAL enable_seqscan = off", logger: logger)
            var lines: [String] = []
            for try await line in try await connection.query(explain, logger: logger).decode(String.self) { lines.append(line) }
            return lines
        }
    }

    /// The catalog, reloaded once when it lacks `className` (another node may have made it).
    private func catalogKnowing(_ className: ClassName) async throws -> QueryCompiler.Catalog {
        let catalog = try await catalog()
        if catalog.tables[className] != nil { return catalog }
        return try await reloadCatalog()
    }

    private func rows<T: Sendable>(_ statement: SQLFragment, _ transform: @escaping @Sendable (PostgresRow) throws -> T) async throws -> [T] {
        try await query(Self.query(statement), transform)
    }

    static func query(_ statement: SQLFragment) -> PostgresQuery {
        PostgresQuery(unsafeSQL: statement.sql, binds: bindings(statement.bindings))
    }

    static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let n): bindings.append(n)
            case .real(let d): bindings.append(d)
            case .text(let s), .json(let s): bindings.append(s)
            case .bool(let b): bindings.append(b)
            }
        }
        return bindings
    }

    static func object(from row: PostgresRow) throws -> StoredObject {
        try document(from: row).decoded()
    }

    static func document(from row: PostgresRow) throws -> StoredDocument {
        let (id, created, updated, read, write, data) = try row.decode((String, String, String, String?, String?, String).self)
        return StoredDocument(objectId: id, createdAt: created, updatedAt: updated, readers: read, writers: write, document: data)
    }
}
