import PostgresNIO
import RooftopCore
package import RooftopStorage

extension PostgresStore {
    /// Performs the writes in one transaction (see `DataStore.write`).
    package func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await write(WriteGroup(operations)).outcomes
    }

    /// Performs a group's writes, trims and exchanges in one transaction (see `WriteGroup`).
    package func write(_ group: WriteGroup) async throws -> WriteGroupOutcome {
        try ExactText.check(group.operations)
        return try await writeTransaction { [self] writer in
            var outcome = WriteGroupOutcome(outcomes: [])
            for operation in group.operations { outcome.outcomes.append(try await perform(operation, writer)) }
            for trim in group.trims { outcome.trimmed.append(try await self.trim(trim, writer)) }
            for exchange in group.exchanges {
                // FOR UPDATE: a concurrent exchange of the same key waits, then reads this one's value.
                var old: (String, Int64)?
                let rows = try await writer.connection.query(
                    #"SELECT "value", "expiresAt" FROM "_ONE_TIME" WHERE "key" = \#(exchange.key) FOR UPDATE"#, logger: logger)
                for try await row in rows.decode((String, Int64).self) { old = row }
                try await writer.connection.query(
                    #"""
                    INSERT INTO "_ONE_TIME" ("key", "value", "expiresAt") VALUES (\#(exchange.key), \#(exchange.value), \#(exchange.expiresAt))
                    ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value", "expiresAt" = excluded."expiresAt"
                    """#, logger: logger)
                outcome.previous.append(old.flatMap { $0.1 > exchange.now ? $0.0 : nil })
            }
            return outcome
        }
    }

    /// Deletes what `trim` names past its cap, as of this transaction: the ids deleted.
    private func trim(_ trim: WriteGroup.Trim, _ writer: PostgresSchemaWriter) async throws -> [String] {
        guard trim.limit > 0, let (schema, table) = try await writer.load(trim.className) else { return [] }
        let catalog = QueryCompiler.Catalog(schemas: [trim.className: schema], tables: [trim.className: table])
        let select = try QueryCompiler.compile(trim.request, dialect: dialect, catalog: catalog)
        var ids: [String] = []
        for try await row in try await writer.connection.query(Self.query(select), logger: logger) { ids.append(try Self.object(from: row).objectId) }
        var deleted: [String] = []
        for id in ids {
            do {
                _ = try await perform(.delete(className: trim.className, objectId: id, access: .master), writer)
                deleted.append(id)
            } catch let error as ParseError where error.code == .objectNotFound {
                continue
            }
        }
        return deleted
    }

    private func perform(_ operation: WriteOperation, _ writer: PostgresSchemaWriter) async throws -> WriteOutcome {
        switch operation {
        case .insert(let className, let objectId, let at, let write, let grant):
            let (_, table) = try await prepareSchema(className, existing: try await writer.load(className), write: write, grant: grant, writer)
            let row = try PlannedRow.inserting(objectId, at: at, write: write)
            var statement = SQLFragment(
                "INSERT INTO \(dialect.quote(table)) (objectId, createdAt, updatedAt, _rperm, _wperm, data) VALUES ($1, $2, $3, $4, $5, $6::jsonb)")
            statement.bindings = [.text(objectId), .text(row.object.createdAt.iso), .text(row.object.updatedAt.iso)]
            try await run(statement, row, writer)
            try await applyRelations(write, objectId: objectId, table: table, writer)
            return .inserted(row.object)
        case .update(let className, let objectId, let at, let write, let access, let grant):
            guard let existing = try await writer.load(className) else { throw ParseError.objectNotFound }
            let (schema, table) = try await prepareSchema(className, existing: existing, write: write, grant: grant, writer)
            let guardCondition = QueryCompiler.writeGuard(access, schema: schema, table: table, dialect: dialect)
            let quoted = dialect.quote(table)
            // FOR UPDATE: the row stays as read until this transaction writes it back.
            var select = SQLFragment(
                "SELECT objectId, createdAt, updatedAt, array_to_json(_rperm)::text, array_to_json(_wperm)::text, data::text FROM \(quoted) WHERE objectId = $1 AND \(guardCondition.sql) FOR UPDATE"
            )
            select.bindings = [.text(objectId)] + guardCondition.bindings
            var found: StoredObject?
            for try await row in try await writer.connection.query(Self.query(select), logger: logger) { found = try Self.object(from: row) }
            guard let stored = found else { throw ParseError.objectNotFound }
            let row = try PlannedRow.updating(stored, at: at, write: write)
            var update = SQLFragment("UPDATE \(quoted) SET updatedAt = $1, _rperm = $2, _wperm = $3, data = $4::jsonb WHERE objectId = $5")
            update.bindings = [.text(row.object.updatedAt.iso)]
            try await run(update, row, trailing: [.text(objectId)], writer)
            try await applyRelations(write, objectId: objectId, table: table, writer)
            return .updated(updatedAt: row.object.updatedAt, echo: row.echo)
        case .delete(let className, let objectId, let access):
            guard let (schema, table) = try await writer.load(className) else { throw ParseError.objectNotFound }
            let guardCondition = QueryCompiler.writeGuard(access, schema: schema, table: table, dialect: dialect)
            var delete = SQLFragment("DELETE FROM \(dialect.quote(table)) WHERE objectId = $1 AND \(guardCondition.sql) RETURNING objectId")
            delete.bindings = [.text(objectId)] + guardCondition.bindings
            var deleted = 0
            for try await _ in try await writer.connection.query(Self.query(delete), logger: logger) { deleted += 1 }
            guard deleted == 1 else { throw ParseError.objectNotFound }
            for field in schema.relationFields {
                let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
                try await writer.connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(join) WHERE owningId = $1", binds: Self.bindings([.text(objectId)])), logger: logger)
            }
            return .deleted
        }
    }

    /// Runs an INSERT or UPDATE whose next three parameters are the row's `_rperm`, `_wperm`
    /// (text arrays) and document, then `trailing`.
    private func run(_ statement: SQLFragment, _ row: PlannedRow, trailing: [SQLValue] = [], _ writer: PostgresSchemaWriter) async throws {
        var bindings = Self.bindings(statement.bindings)
        if let lists = row.permissionLists {
            bindings.append(lists.read)
            bindings.append(lists.write)
        } else {
            bindings.appendNull()
            bindings.appendNull()
        }
        bindings.append(row.document)
        for value in trailing {
            if case .text(let text) = value { bindings.append(text) }
        }
        try await writer.connection.query(PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger)
    }

    /// The class's schema (`existing`, as read in this transaction) grown as `SchemaGrowth`
    /// plans; a change takes the class's schema lock and plans again on a fresh read, so
    /// concurrent first writes of a field can't both add it.
    private func prepareSchema(
        _ className: ClassName, existing: (ClassSchema, String)?, write: ObjectWrite, grant: SchemaGrant, _ writer: PostgresSchemaWriter
    ) async throws -> (ClassSchema, String) {
        if let (stored, table) = existing, let schema = try SchemaGrowth.unchanged(stored, by: write) { return (schema, table) }
        try await writer.lock(className)
        let current = try await writer.load(className)
        let growth = try SchemaGrowth(className, stored: current?.0, write: write, grant: grant)
        if let (_, table) = current, !growth.needsSave { return (growth.schema, table) }
        return (growth.schema, try await writer.save(growth.schema))
    }

    private func applyRelations(_ write: ObjectWrite, objectId: String, table: String, _ writer: PostgresSchemaWriter) async throws {
        for edit in RelationEdit.of(write) {
            let join = dialect.quote(QueryCompiler.joinTable(field: edit.field, ownerTable: table))
            for id in edit.adds {
                try await writer.connection.query(
                    PostgresQuery(
                        unsafeSQL: "INSERT INTO \(join) (owningId, relatedId) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                        binds: Self.bindings([.text(objectId), .text(id)])), logger: logger)
            }
            for id in edit.removes {
                try await writer.connection.query(
                    PostgresQuery(
                        unsafeSQL: "DELETE FROM \(join) WHERE owningId = $1 AND relatedId = $2",
                        binds: Self.bindings([.text(objectId), .text(id)])), logger: logger)
            }
        }
    }
}
