import GRDB
import RooftopCore
import RooftopStorage

extension SQLiteStore {
    /// Whether a lone update or delete would be refused, decided by one point read on the
    /// calling thread: true for 101 (no such object, or the caller may not write it); a thrown
    /// `ParseError` is the schema's refusal of the body (111, 119, …), as the writer would give it.
    ///
    /// The writer is one connection: a refused write sent to it crosses to its thread and back,
    /// takes the write lock and rolls back, and while it does, every real write waits — refused
    /// writes from one hostile client would queue ahead of everyone's. The read asks what the
    /// writer would ask (the same guard, compiled from the same schema) in one statement, which
    /// also reads the schema version: when that is not the version the cached schema was read
    /// at, or the update would add fields first (its guard would be compiled from the grown
    /// schema), or the read fails, the answer is "don't know" (false) and the writer decides as
    /// before. A refusal from a snapshot is the writer's answer at that moment; a "writable"
    /// proves nothing and the writer checks again.
    func refusesWithoutWriting(_ operation: WriteOperation) throws -> Bool {
        let className: ClassName
        let objectId: String
        let access: Access
        switch operation {
        case .update(let name, let id, _, _, let writeAccess, _), .delete(let name, let id, let writeAccess):
            (className, objectId, access) = (name, id, writeAccess)
        case .insert:
            return false
        }
        // The master key without a required value is refused only when the object is missing;
        // leave that to the writer.
        guard
            access.aclGroup != nil || !access.pointerRestriction.isEmpty || !access.requiredValues.isEmpty
                || !access.requiredAbsent.isEmpty,
            let cached = catalogCache.withLock({ $0 }), let schema = cached.catalog.schemas[className],
            let table = cached.catalog.tables[className]
        else { return false }
        // The writer plans the schema before it looks for the row: its refusal comes first.
        var growth: Result<SchemaGrowth, ParseError>?
        if case .update(_, _, _, let write, _, let grant) = operation {
            growth = Result { () throws(ParseError) in try SchemaGrowth(className, stored: schema, write: write, grant: grant) }
        }
        let condition = QueryCompiler.writeGuard(access, schema: schema, table: table, dialect: dialect)
        let sql = """
            SELECT (SELECT version FROM _SCHEMA_VERSION), \
            EXISTS (SELECT 1 FROM \(dialect.quote(table)) WHERE objectId = ? AND \(condition.sql))
            """
        let arguments = SQLiteStore.arguments([.text(objectId)] + condition.bindings)
        let read: (version: Int, writable: Bool)?
        do {
            read = try onReaderHere { db in
                try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map { row in (row[0] ?? 0, row[1]) }
            }
        } catch {
            return false
        }
        guard let read, read.version == cached.version else { return false }
        switch growth {
        case .failure(let error): throw error
        case .success(let planned) where planned.needsSave: return false
        default: return !read.writable
        }
    }
}
