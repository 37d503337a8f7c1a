import Logging
import PostgresNIO
import RooftopCore
import RooftopStorage

/// Schema changes on PostgreSQL, inside the caller's transaction: the `_SCHEMA` row, the class
/// table, join tables and indexes.
struct PostgresSchemaWriter {
    let connection: PostgresConnection
    let logger: Logger
    /// Set when this transaction changes a schema (so the other nodes are told after commit).
    let changed: LockedValue<Bool>
    static let dialect = PostgresDialect()
    var dialect: PostgresDialect { Self.dialect }

    /// Serializes schema changes of one class across connections and nodes until the
    /// transaction ends (two first writes of a field can't both add it).
    func lock(_ className: ClassName) async throws {
        let key = "rooftop.schema." + className.rawValue
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: logger)
    }

    /// The stored schema and table of `className`, or nil.
    func load(_ className: ClassName) async throws -> (ClassSchema, String)? {
        let rows = try await connection.query(
            #"SELECT "tableName", "schema" FROM "_SCHEMA" WHERE "className" = \#(className.rawValue)"#, logger: logger)
        for try await (table, json) in rows.decode((String, String).self) {
            return (try SchemaCoding.decode(className: className.rawValue, json: json), table)
        }
        return nil
    }

    func execute(_ sql: String) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// Creates or updates a class: schema row, table, join tables and indexes.
    @discardableResult
    func save(_ schema: ClassSchema) async throws -> String {
        changed.withLock { $0 = true }
        let json = SchemaCoding.encode(schema)
        let table: String
        if let (_, existing) = try await load(schema.className) {
            table = existing
            try await connection.query(
                #"UPDATE "_SCHEMA" SET "schema" = \#(json) WHERE "className" = \#(schema.className.rawValue)"#, logger: logger)
        } else {
            table = schema.className.rawValue
            try await connection.query(
                #"INSERT INTO "_SCHEMA" ("className", "tableName", "schema") VALUES (\#(schema.className.rawValue), \#(table), \#(json))"#,
                logger: logger)
            let quoted = dialect.quote(table)
            try await execute(
                """
                CREATE TABLE \(quoted) (
                    objectId text COLLATE "C" PRIMARY KEY, createdAt text COLLATE "C" NOT NULL, updatedAt text COLLATE "C" NOT NULL,
                    _rperm text[], _wperm text[], data jsonb NOT NULL)
                """)
            try await execute("CREATE INDEX \(dialect.quote("\(table)_rperm")) ON \(quoted) USING gin (_rperm)")
        }
        try await ensureIndexes(schema, table: table)
        return table
    }

    /// Pointer-to-user indexes, join tables for relations, and indexes asked for via `/schemas`.
    func ensureIndexes(_ schema: ClassSchema, table: String) async throws {
        let quoted = dialect.quote(table)
        for plan in IndexPlan.indexes(schema, table: table, dialect: dialect) {
            let unique = plan.unique ? "UNIQUE " : ""
            try await execute("CREATE \(unique)INDEX IF NOT EXISTS \(dialect.quote(plan.name)) ON \(quoted) (\(plan.columnList()))")
        }
        for field in schema.relationFields {
            let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
            try await execute(
                #"CREATE TABLE IF NOT EXISTS \#(join) (owningId text COLLATE "C" NOT NULL, relatedId text COLLATE "C" NOT NULL, PRIMARY KEY (owningId, relatedId))"#
            )
            try await execute("CREATE INDEX IF NOT EXISTS \(dialect.quote("\(table)_\(field)_related")) ON \(join) (relatedId)")
        }
    }

    /// Deletes the data of fields `next` no longer has, and drops its removed indexes.
    func dropRemoved(from old: ClassSchema, to next: ClassSchema, table: String) async throws {
        let quoted = dialect.quote(table)
        let removal = SchemaRemoval(from: old, to: next)
        for field in removal.fields {
            if field.isRelation {
                try await execute("DROP TABLE IF EXISTS \(dialect.quote(QueryCompiler.joinTable(field: field.name, ownerTable: table)))")
            } else {
                try await execute("DROP INDEX IF EXISTS \(dialect.quote(IndexPlan.pointerIndexName(field.name, table: table)))")
            }
            try await execute("UPDATE \(quoted) SET data = \(dialect.removeKeys("data", [field.name])) WHERE data ? '\(field.name)'")
        }
        for name in removal.indexes {
            try await execute("DROP INDEX IF EXISTS \(dialect.quote(IndexPlan.requestedIndexName(name, table: table)))")
        }
    }

    /// Drops an empty class and its join tables (255 when objects remain).
    func drop(_ className: ClassName) async throws {
        changed.withLock { $0 = true }
        guard let (schema, table) = try await load(className) else { throw SchemaRemoval.missingClass(className) }
        let quoted = dialect.quote(table)
        for try await exists in try await connection.query(PostgresQuery(unsafeSQL: "SELECT EXISTS (SELECT 1 FROM \(quoted))"), logger: logger)
            .decode(Bool.self) where exists
        {
            throw SchemaRemoval.classNotEmpty(className)
        }
        for field in schema.relationFields {
            try await execute("DROP TABLE IF EXISTS \(dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table)))")
        }
        try await execute("DROP TABLE \(quoted)")
        try await connection.query(#"DELETE FROM "_SCHEMA" WHERE "className" = \#(className.rawValue)"#, logger: logger)
    }
}
