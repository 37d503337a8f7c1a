import GRDB
import RooftopCore
package import RooftopStorage

extension SQLiteStore {
    /// Performs the writes in one transaction (see `DataStore.write`); a lone write the readers
    /// can already refuse (`refusesWithoutWriting`) never waits for the writer.
    package func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try ExactText.check(operations)
        if operations.count == 1, try refusesWithoutWriting(operations[0]) { throw ParseError.objectNotFound }
        return try await transaction(WriteGroup(operations)).outcomes
    }

    /// Performs a group's writes, trims and exchanges in one transaction (see `WriteGroup`).
    package func write(_ group: WriteGroup) async throws -> WriteGroupOutcome {
        try ExactText.check(group.operations)
        return try await transaction(group)
    }

    /// The group in one write transaction, its text already checked.
    private func transaction(_ group: WriteGroup) async throws -> WriteGroupOutcome {
        try await writeTransaction { [catalogCache] db in
            let outcomes = try group.operations.map { operation in try SQLiteStore.perform(operation, cache: catalogCache, db: db) }
            let trimmed = try group.trims.map { trim in try SQLiteStore.trim(trim, cache: catalogCache, db: db) }
            let previous = try group.exchanges.map { exchange in
                let old = try Row.fetchOne(db, sql: "SELECT value, expiresAt FROM _ONE_TIME WHERE key = ?", arguments: [exchange.key])
                try db.execute(
                    sql:
                        "INSERT INTO _ONE_TIME (key, value, expiresAt) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expiresAt = excluded.expiresAt",
                    arguments: [exchange.key, exchange.value, exchange.expiresAt])
                return old.flatMap { row in (row[1] as Int64) > exchange.now ? (row[0] as String) : nil }
            }
            return WriteGroupOutcome(outcomes: outcomes, trimmed: trimmed, previous: previous)
        }
    }

    /// Deletes what `trim` names past its cap, as of this transaction: the ids deleted.
    static func trim(_ trim: WriteGroup.Trim, cache: LockedValue<VersionedCatalog?>, db: Database) throws -> [String] {
        guard trim.limit > 0, let (schema, table) = try schema(trim.className, cache: cache, db: db) else { return [] }
        let catalog = QueryCompiler.Catalog(schemas: [trim.className: schema], tables: [trim.className: table])
        let select = try QueryCompiler.compile(trim.request, dialect: dialect, catalog: catalog)
        let ids = try Row.fetchAll(db.cachedStatement(sql: select.sql), arguments: arguments(select.bindings)).map { try object(from: $0).objectId }
        return try ids.filter { id in
            do {
                _ = try perform(.delete(className: trim.className, objectId: id, access: .master), cache: cache, db: db)
                return true
            } catch let error as ParseError where error.code == .objectNotFound {
                return false
            }
        }
    }

    /// A class's stored schema and table as of this transaction: from the catalog cache when it
    /// reflects this transaction's schema version (one cached statement), else read and decoded
    /// from `_SCHEMA`. Every write needs it; decoding the schema's JSON was a sixth of a
    /// create's CPU (docs/benchmarks.md).
    ///
    /// Writes are serialized, and every schema change bumps the version (a trigger), so a cache
    /// at the current version says what the row says; a change earlier in this same transaction
    /// moves the version and sends the read to the row.
    static func schema(_ className: ClassName, cache: LockedValue<VersionedCatalog?>, db: Database) throws -> (ClassSchema, String)? {
        let version = try schemaVersion(db)
        if let cached = cache.withLock({ $0 }), cached.version == version {
            guard let schema = cached.catalog.schemas[className], let table = cached.catalog.tables[className] else { return nil }
            return (schema, table)
        }
        return try SQLiteSchemaWriter.load(className, db: db)
    }

    static func perform(_ operation: WriteOperation, cache: LockedValue<VersionedCatalog?>, db: Database) throws -> WriteOutcome {
        switch operation {
        case .insert(let className, let objectId, let at, let write, let grant):
            let table = try prepareSchema(className, write: write, grant: grant, cache: cache, db: db).1
            let row = try PlannedRow.inserting(objectId, at: at, write: write)
            let perms = row.permissionText
            // Cached statements: a class's statements repeat, and parsing one costs more than
            // binding it (SQLite re-prepares a statement whose table changed).
            try db.cachedStatement(
                sql: "INSERT INTO \(dialect.quote(table)) (objectId, createdAt, updatedAt, _rperm, _wperm, data) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [objectId, row.object.createdAt.iso, row.object.updatedAt.iso, perms.read, perms.write, row.document])
            try applyRelations(write, objectId: objectId, table: table, db: db)
            return .inserted(row.object)
        case .update(let className, let objectId, let at, let write, let access, let grant):
            guard try schema(className, cache: cache, db: db) != nil else { throw ParseError.objectNotFound }
            let (schema, table) = try prepareSchema(className, write: write, grant: grant, cache: cache, db: db)
            let guardCondition = QueryCompiler.writeGuard(access, schema: schema, table: table, dialect: dialect)
            let quoted = dialect.quote(table)
            let select = "SELECT objectId, createdAt, updatedAt, _rperm, _wperm, data FROM \(quoted) WHERE objectId = ? AND \(guardCondition.sql)"
            guard let stored = try Row.fetchOne(db.cachedStatement(sql: select), arguments: arguments([.text(objectId)] + guardCondition.bindings))
            else {
                throw ParseError.objectNotFound
            }
            let row = try PlannedRow.updating(try object(from: stored), at: at, write: write)
            let perms = row.permissionText
            let update = "UPDATE \(quoted) SET updatedAt = ?, _rperm = ?, _wperm = ?, data = ? WHERE objectId = ? AND \(guardCondition.sql)"
            let values: [SQLValue] = [
                .text(row.object.updatedAt.iso), perms.read.map(SQLValue.text) ?? .null, perms.write.map(SQLValue.text) ?? .null, .text(row.document),
                .text(objectId),
            ]
            try db.cachedStatement(sql: update).execute(arguments: arguments(values + guardCondition.bindings))
            guard db.changesCount == 1 else { throw ParseError.objectNotFound }
            try applyRelations(write, objectId: objectId, table: table, db: db)
            return .updated(updatedAt: row.object.updatedAt, echo: row.echo)
        case .delete(let className, let objectId, let access):
            guard let (schema, table) = try schema(className, cache: cache, db: db) else { throw ParseError.objectNotFound }
            let guardCondition = QueryCompiler.writeGuard(access, schema: schema, table: table, dialect: dialect)
            try db.cachedStatement(sql: "DELETE FROM \(dialect.quote(table)) WHERE objectId = ? AND \(guardCondition.sql)")
                .execute(arguments: arguments([.text(objectId)] + guardCondition.bindings))
            guard db.changesCount == 1 else { throw ParseError.objectNotFound }
            for field in schema.relationFields {
                let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
                try db.execute(sql: "DELETE FROM \(join) WHERE owningId = ?", arguments: [objectId])
            }
            return .deleted
        }
    }

    private static var dialect: SQLiteDialect { SQLiteDialect() }

    /// The class's schema as of this transaction, grown as `SchemaGrowth` plans and saved when
    /// it changed.
    private static func prepareSchema(
        _ className: ClassName, write: ObjectWrite, grant: SchemaGrant, cache: LockedValue<VersionedCatalog?>, db: Database
    ) throws -> (ClassSchema, String) {
        let stored = try schema(className, cache: cache, db: db)
        let growth = try SchemaGrowth(className, stored: stored?.0, write: write, grant: grant)
        if let (_, table) = stored, !growth.needsSave { return (growth.schema, table) }
        return (growth.schema, try SQLiteSchemaWriter.save(growth.schema, db: db))
    }

    private static func applyRelations(_ write: ObjectWrite, objectId: String, table: String, db: Database) throws {
        for edit in RelationEdit.of(write) {
            let join = dialect.quote(QueryCompiler.joinTable(field: edit.field, ownerTable: table))
            for id in edit.adds {
                try db.execute(sql: "INSERT OR IGNORE INTO \(join) (owningId, relatedId) VALUES (?, ?)", arguments: [objectId, id])
            }
            for id in edit.removes {
                try db.execute(sql: "DELETE FROM \(join) WHERE owningId = ? AND relatedId = ?", arguments: [objectId, id])
            }
        }
    }
}
