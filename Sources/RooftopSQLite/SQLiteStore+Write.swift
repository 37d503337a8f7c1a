import GRDB
import RooftopCore
import RooftopStorage

extension SQLiteStore {
    /// Performs the writes in one transaction (see `DataStore.write`).
    public func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await writeTransaction { [catalogCache] db in
            try operations.map { operation in try SQLiteStore.perform(operation, cache: catalogCache, db: db) }
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
            let (schema, table) = try prepareSchema(className, write: write, grant: grant, cache: cache, db: db)
            var fields: [String: JSON] = [:]
            try DocumentUpdate.apply(write, to: &fields)
            let perms = DocumentCoding.permissions(write.acl)
            try db.execute(
                sql: "INSERT INTO \(dialect.quote(table)) (objectId, createdAt, updatedAt, _rperm, _wperm, data) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [objectId, at.iso, at.iso, perms.read, perms.write, DocumentCoding.encode(fields)])
            try applyRelations(write, objectId: objectId, schema: schema, table: table, db: db)
            return .inserted(StoredObject(objectId: objectId, createdAt: at, updatedAt: at, acl: write.acl, fields: fields))
        case .update(let className, let objectId, let at, let write, let access, let grant):
            guard try schema(className, cache: cache, db: db) != nil else { throw ParseError.objectNotFound }
            let (schema, table) = try prepareSchema(className, write: write, grant: grant, cache: cache, db: db)
            let catalog = QueryCompiler.Catalog(schemas: [className: schema], tables: [className: table])
            let guardCondition = QueryCompiler.accessCondition(
                access, schema: schema, permissionColumn: "_wperm", dialect: dialect, catalog: catalog, bindingOffset: 1)
            let quoted = dialect.quote(table)
            let select = "SELECT objectId, createdAt, updatedAt, _rperm, _wperm, data FROM \(quoted) WHERE objectId = ? AND \(guardCondition.sql)"
            guard let row = try Row.fetchOne(db, sql: select, arguments: arguments([.text(objectId)] + guardCondition.bindings)) else {
                throw ParseError.objectNotFound
            }
            var object = try object(from: row)
            let echo = try DocumentUpdate.apply(write, to: &object.fields)
            if write.clearsACL { object.acl = nil }
            if let acl = write.acl { object.acl = acl }
            let perms = DocumentCoding.permissions(object.acl)
            let update = "UPDATE \(quoted) SET updatedAt = ?, _rperm = ?, _wperm = ?, data = ? WHERE objectId = ? AND \(guardCondition.sql)"
            let values: [SQLValue] = [
                .text(at.iso), perms.read.map(SQLValue.text) ?? .null, perms.write.map(SQLValue.text) ?? .null,
                .text(DocumentCoding.encode(object.fields)), .text(objectId),
            ]
            try db.execute(sql: update, arguments: arguments(values + guardCondition.bindings))
            guard db.changesCount == 1 else { throw ParseError.objectNotFound }
            try applyRelations(write, objectId: objectId, schema: schema, table: table, db: db)
            return .updated(updatedAt: at, echo: echo)
        case .delete(let className, let objectId, let access):
            guard let (schema, table) = try schema(className, cache: cache, db: db) else { throw ParseError.objectNotFound }
            let catalog = QueryCompiler.Catalog(schemas: [className: schema], tables: [className: table])
            let guardCondition = QueryCompiler.accessCondition(
                access, schema: schema, permissionColumn: "_wperm", dialect: dialect, catalog: catalog, bindingOffset: 1)
            try db.execute(
                sql: "DELETE FROM \(dialect.quote(table)) WHERE objectId = ? AND \(guardCondition.sql)",
                arguments: arguments([.text(objectId)] + guardCondition.bindings))
            guard db.changesCount == 1 else { throw ParseError.objectNotFound }
            for (field, type) in schema.fields {
                guard case .relation = type else { continue }
                let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
                try db.execute(sql: "DELETE FROM \(join) WHERE owningId = ?", arguments: [objectId])
            }
            return .deleted
        }
    }

    private static var dialect: SQLiteDialect { SQLiteDialect() }

    /// The class's schema as of this transaction, merged with the write's field types.
    ///
    /// Inside the write transaction, so concurrent first writes of a field are serialized: the
    /// second one sees the first one's type and fails with 111 if it differs.
    private static func prepareSchema(
        _ className: ClassName, write: ObjectWrite, grant: SchemaGrant, cache: LockedValue<VersionedCatalog?>, db: Database
    ) throws -> (ClassSchema, String) {
        let proposed = try write.impliedTypes()
        for (path, op) in write.operations where !path.subkeys.isEmpty {
            if case .relation = op { throw ParseError(.invalidKeyName, "relations cannot be nested") }
        }
        if let (existing, table) = try schema(className, cache: cache, db: db) {
            var schema = existing
            let added = try schema.merge(proposed)
            try checkNestedTargets(write, schema: schema)
            if added.isEmpty { return (schema, table) }
            guard grant.addFields else {
                throw ParseError(.operationForbidden, "Permission denied for action addField on class \(className).")
            }
            return (schema, try SQLiteSchemaWriter.save(schema, db: db))
        }
        guard grant.createClass else {
            throw ParseError(.operationForbidden, "This user is not allowed to access non-existent class: \(className)")
        }
        var schema = ClassSchema(className: className)
        _ = try schema.merge(proposed)
        return (schema, try SQLiteSchemaWriter.save(schema, db: db))
    }

    /// Dot-path writes may only go into Object fields.
    private static func checkNestedTargets(_ write: ObjectWrite, schema: ClassSchema) throws {
        for (path, _) in write.operations where !path.subkeys.isEmpty {
            if let type = schema.fields[path.field.rawValue], type != .object {
                throw ParseError(.incorrectType, "cannot set a nested key on \(path.field) of type \(type.name)")
            }
        }
    }

    private static func applyRelations(_ write: ObjectWrite, objectId: String, schema: ClassSchema, table: String, db: Database) throws {
        for (path, op) in write.operations {
            guard case .relation(let adds, let removes) = op else { continue }
            let join = dialect.quote(QueryCompiler.joinTable(field: path.field.rawValue, ownerTable: table))
            for ref in adds {
                try db.execute(sql: "INSERT OR IGNORE INTO \(join) (owningId, relatedId) VALUES (?, ?)", arguments: [objectId, ref.objectId])
            }
            for ref in removes {
                try db.execute(sql: "DELETE FROM \(join) WHERE owningId = ? AND relatedId = ?", arguments: [objectId, ref.objectId])
            }
        }
    }
}
