import PostgresNIO
import RooftopCore
import RooftopStorage

extension PostgresStore {
    /// Performs the writes in one transaction (see `DataStore.write`).
    public func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await writeTransaction { [self] writer in
            var outcomes: [WriteOutcome] = []
            for operation in operations { outcomes.append(try await perform(operation, writer)) }
            return outcomes
        }
    }

    private func perform(_ operation: WriteOperation, _ writer: PostgresSchemaWriter) async throws -> WriteOutcome {
        switch operation {
        case .insert(let className, let objectId, let at, let write, let grant):
            let (_, table) = try await prepareSchema(className, existing: try await writer.load(className), write: write, grant: grant, writer)
            var fields: [String: JSON] = [:]
            try DocumentUpdate.apply(write, to: &fields)
            var statement = SQLFragment(
                "INSERT INTO \(dialect.quote(table)) (objectId, createdAt, updatedAt, _rperm, _wperm, data) VALUES ($1, $2, $3, $4, $5, $6::jsonb)")
            statement.bindings = [.text(objectId), .text(at.iso), .text(at.iso)]
            try await run(statement, permissions: write.acl, document: DocumentCoding.encode(fields), writer)
            try await applyRelations(write, objectId: objectId, table: table, writer)
            return .inserted(StoredObject(objectId: objectId, createdAt: at, updatedAt: at, acl: write.acl, fields: fields))
        case .update(let className, let objectId, let at, let write, let access, let grant):
            guard let existing = try await writer.load(className) else { throw ParseError.objectNotFound }
            let (schema, table) = try await prepareSchema(className, existing: existing, write: write, grant: grant, writer)
            let catalog = QueryCompiler.Catalog(schemas: [className: schema], tables: [className: table])
            let guardCondition = QueryCompiler.accessCondition(
                access, schema: schema, permissionColumn: "_wperm", dialect: dialect, catalog: catalog, bindingOffset: 1)
            let quoted = dialect.quote(table)
            // FOR UPDATE: the row stays as read until this transaction writes it back.
            var select = SQLFragment(
                "SELECT objectId, createdAt, updatedAt, array_to_json(_rperm)::text, array_to_json(_wperm)::text, data::text FROM \(quoted) WHERE objectId = $1 AND \(guardCondition.sql) FOR UPDATE"
            )
            select.bindings = [.text(objectId)] + guardCondition.bindings
            var found: StoredObject?
            for try await row in try await writer.connection.query(Self.query(select), logger: logger) { found = try Self.object(from: row) }
            guard var object = found else { throw ParseError.objectNotFound }
            let echo = try DocumentUpdate.apply(write, to: &object.fields)
            if write.clearsACL { object.acl = nil }
            if let acl = write.acl { object.acl = acl }
            var update = SQLFragment("UPDATE \(quoted) SET updatedAt = $1, _rperm = $2, _wperm = $3, data = $4::jsonb WHERE objectId = $5")
            update.bindings = [.text(at.iso)]
            try await run(update, permissions: object.acl, document: DocumentCoding.encode(object.fields), trailing: [.text(objectId)], writer)
            try await applyRelations(write, objectId: objectId, table: table, writer)
            return .updated(updatedAt: at, echo: echo)
        case .delete(let className, let objectId, let access):
            guard let (schema, table) = try await writer.load(className) else { throw ParseError.objectNotFound }
            let catalog = QueryCompiler.Catalog(schemas: [className: schema], tables: [className: table])
            let guardCondition = QueryCompiler.accessCondition(
                access, schema: schema, permissionColumn: "_wperm", dialect: dialect, catalog: catalog, bindingOffset: 1)
            var delete = SQLFragment("DELETE FROM \(dialect.quote(table)) WHERE objectId = $1 AND \(guardCondition.sql) RETURNING objectId")
            delete.bindings = [.text(objectId)] + guardCondition.bindings
            var deleted = 0
            for try await _ in try await writer.connection.query(Self.query(delete), logger: logger) { deleted += 1 }
            guard deleted == 1 else { throw ParseError.objectNotFound }
            for (field, type) in schema.fields.sorted(by: { $0.key < $1.key }) {
                guard case .relation = type else { continue }
                let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
                try await writer.connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(join) WHERE owningId = $1", binds: Self.bindings([.text(objectId)])), logger: logger)
            }
            return .deleted
        }
    }

    /// Runs an INSERT or UPDATE whose next three parameters are `_rperm`, `_wperm` (text arrays)
    /// and the document, then `trailing`.
    private func run(
        _ statement: SQLFragment, permissions acl: ACL?, document: String, trailing: [SQLValue] = [], _ writer: PostgresSchemaWriter
    ) async throws {
        var bindings = Self.bindings(statement.bindings)
        if let acl {
            bindings.append(acl.readers.sorted())
            bindings.append(acl.writers.sorted())
        } else {
            bindings.appendNull()
            bindings.appendNull()
        }
        bindings.append(document)
        for value in trailing {
            if case .text(let text) = value { bindings.append(text) }
        }
        try await writer.connection.query(PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger)
    }

    /// The class's schema (`existing`, as read in this transaction) with the write's field types
    /// merged; a change takes the class's schema lock and re-reads, so concurrent first writes of
    /// a field can't both add it.
    private func prepareSchema(
        _ className: ClassName, existing: (ClassSchema, String)?, write: ObjectWrite, grant: SchemaGrant, _ writer: PostgresSchemaWriter
    ) async throws -> (ClassSchema, String) {
        let proposed = try write.impliedTypes()
        for (path, op) in write.operations where !path.subkeys.isEmpty {
            if case .relation = op { throw ParseError(.invalidKeyName, "relations cannot be nested") }
        }
        if let (current, table) = existing {
            var schema = current
            let added = try schema.merge(proposed)
            try Self.checkNestedTargets(write, schema: schema)
            if added.isEmpty { return (schema, table) }
        }
        try await writer.lock(className)
        if let (existing, table) = try await writer.load(className) {
            var schema = existing
            let added = try schema.merge(proposed)
            if added.isEmpty { return (schema, table) }
            guard grant.addFields else {
                throw ParseError(.operationForbidden, "Permission denied for action addField on class \(className).")
            }
            return (schema, try await writer.save(schema))
        }
        guard grant.createClass else {
            throw ParseError(.operationForbidden, "This user is not allowed to access non-existent class: \(className)")
        }
        var schema = ClassSchema(className: className)
        _ = try schema.merge(proposed)
        return (schema, try await writer.save(schema))
    }

    /// Dot-path writes may only go into Object fields.
    private static func checkNestedTargets(_ write: ObjectWrite, schema: ClassSchema) throws {
        for (path, _) in write.operations where !path.subkeys.isEmpty {
            if let type = schema.fields[path.field.rawValue], type != .object {
                throw ParseError(.incorrectType, "cannot set a nested key on \(path.field) of type \(type.name)")
            }
        }
    }

    private func applyRelations(_ write: ObjectWrite, objectId: String, table: String, _ writer: PostgresSchemaWriter) async throws {
        for (path, op) in write.operations {
            guard case .relation(let adds, let removes) = op else { continue }
            let join = dialect.quote(QueryCompiler.joinTable(field: path.field.rawValue, ownerTable: table))
            for ref in adds {
                try await writer.connection.query(
                    PostgresQuery(
                        unsafeSQL: "INSERT INTO \(join) (owningId, relatedId) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                        binds: Self.bindings([.text(objectId), .text(ref.objectId)])), logger: logger)
            }
            for ref in removes {
                try await writer.connection.query(
                    PostgresQuery(
                        unsafeSQL: "DELETE FROM \(join) WHERE owningId = $1 AND relatedId = $2",
                        binds: Self.bindings([.text(objectId), .text(ref.objectId)])), logger: logger)
            }
        }
    }
}
