import GRDB
import RooftopCore
import RooftopStorage

/// Schema changes on SQLite: the `_SCHEMA` row, the class table, join tables and indexes.
enum SQLiteSchemaWriter {
    static let dialect = SQLiteDialect()

    /// The stored schema and table of `className`, or nil.
    static func load(_ className: ClassName, db: Database) throws -> (ClassSchema, String)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT tableName, schema FROM _SCHEMA WHERE className = ?", arguments: [className.rawValue])
        else { return nil }
        return (try SchemaCoding.decode(className: className.rawValue, json: row[1]), row[0])
    }

    /// Creates or updates a class: schema row, table, join tables and indexes.
    @discardableResult
    static func save(_ schema: ClassSchema, db: Database) throws -> String {
        let table: String
        if let (_, existing) = try load(schema.className, db: db) {
            table = existing
            try db.execute(
                sql: "UPDATE _SCHEMA SET schema = ? WHERE className = ?", arguments: [SchemaCoding.encode(schema), schema.className.rawValue])
        } else {
            table = try freeTableName(for: schema.className, db: db)
            try db.execute(
                sql: "INSERT INTO _SCHEMA (className, tableName, schema) VALUES (?, ?, ?)",
                arguments: [schema.className.rawValue, table, SchemaCoding.encode(schema)])
            try db.execute(
                sql: """
                    CREATE TABLE \(dialect.quote(table)) (
                        objectId TEXT PRIMARY KEY NOT NULL, createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL,
                        _rperm TEXT, _wperm TEXT, data TEXT NOT NULL)
                    """)
        }
        try ensureIndexes(schema, table: table, db: db)
        return table
    }

    /// SQLite table names ignore case while Parse class names do not: `Note` and `note` get
    /// different tables.
    private static func freeTableName(for className: ClassName, db: Database) throws -> String {
        var candidate = className.rawValue
        var suffix = 1
        while try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM _SCHEMA WHERE tableName = ? COLLATE NOCASE)", arguments: [candidate]) ?? false
        {
            suffix += 1
            candidate = "\(className.rawValue)_\(suffix)"
        }
        return candidate
    }

    /// Pointer-to-user indexes, join tables for relations, and indexes asked for via `/schemas`.
    static func ensureIndexes(_ schema: ClassSchema, table: String, db: Database) throws {
        let quoted = dialect.quote(table)
        for plan in IndexPlan.indexes(schema, table: table, dialect: dialect) {
            let unique = plan.unique ? "UNIQUE " : ""
            try db.execute(
                sql: "CREATE \(unique)INDEX IF NOT EXISTS \(dialect.quote(plan.name)) ON \(quoted) (\(plan.columnList()))")
        }
        for field in schema.relationFields {
            let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS \(join) (owningId TEXT NOT NULL, relatedId TEXT NOT NULL, PRIMARY KEY (owningId, relatedId));
                    CREATE INDEX IF NOT EXISTS \(dialect.quote("\(table)_\(field)_related")) ON \(join) (relatedId);
                    """)
        }
    }

    /// Deletes the data of fields `next` no longer has, and drops its removed indexes.
    static func dropRemoved(from old: ClassSchema, to next: ClassSchema, table: String, db: Database) throws {
        let quoted = dialect.quote(table)
        let removal = SchemaRemoval(from: old, to: next)
        for field in removal.fields {
            if field.isRelation {
                try db.execute(sql: "DROP TABLE IF EXISTS \(dialect.quote(QueryCompiler.joinTable(field: field.name, ownerTable: table)))")
            } else {
                try db.execute(sql: "DROP INDEX IF EXISTS \(dialect.quote(IndexPlan.pointerIndexName(field.name, table: table)))")
            }
            let path = dialect.jsonExists("data", [field.name])
            try db.execute(sql: "UPDATE \(quoted) SET data = \(dialect.removeKeys("data", [field.name])) WHERE \(path) IS NOT NULL")
        }
        for name in removal.indexes {
            try db.execute(sql: "DROP INDEX IF EXISTS \(dialect.quote(IndexPlan.requestedIndexName(name, table: table)))")
        }
    }

    /// Drops an empty class and its join tables (255 when objects remain).
    static func drop(_ className: ClassName, db: Database) throws {
        guard let (schema, table) = try load(className, db: db) else { throw SchemaRemoval.missingClass(className) }
        let quoted = dialect.quote(table)
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted))") ?? false { throw SchemaRemoval.classNotEmpty(className) }
        for field in schema.relationFields {
            try db.execute(sql: "DROP TABLE IF EXISTS \(dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table)))")
        }
        try db.execute(sql: "DROP TABLE \(quoted)")
        try db.execute(sql: "DELETE FROM _SCHEMA WHERE className = ?", arguments: [className.rawValue])
    }
}
