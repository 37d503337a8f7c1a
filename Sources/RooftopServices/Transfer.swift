import Foundation
package import RooftopCore
package import RooftopStorage

/// Moves a whole database between stores of any kind (SQLite → PostgreSQL, and back): every
/// class's schema, every object with its internal fields (password hashes, session digests),
/// timestamps, ACL and relations, as JSON lines.
///
/// The export is deterministic (classes by name, objects by objectId, keys sorted), so exporting
/// an imported database gives the same bytes.
package enum Transfer {
    /// The first line of an export.
    package static let header: JSON = ["format": "rooftop-export", "version": 1]
    static let page = 500

    /// Writes every class of `store` to `emit`, one JSON line at a time, then every file of
    /// `files`; `progress` hears (class, objects done, objects in the class).
    package static func export(
        _ store: any DataStore, files: (any FileStore)? = nil, emit: (String) async throws -> Void,
        progress: (String, Int, Int) -> Void = { _, _, _ in }
    ) async throws {
        try await emit(line(header))
        for schema in try await store.allSchemas() {
            let className = schema.className
            try await emit(
                line(["schema": ["className": .string(className.rawValue), "definition": try JSONParser.parse(SchemaCoding.encode(schema))]]))
            let scope = AccessScope(classes: [className: .master])
            let total = try await store.count(FindRequest(className: className, query: .always, scope: scope))
            let relations = schema.fields.compactMap { name, type -> String? in
                if case .relation = type { return name }
                return nil
            }.sorted()
            var done = 0
            try await store.forEachPage(of: className, size: page) { objects in
                for object in objects {
                    var related: [String: JSON] = [:]
                    for field in relations {
                        related[field] = .array(try await relatedIds(store, object.objectId, className, field, schema).map(JSON.string))
                    }
                    try await emit(line(objectLine(className, object, related)))
                }
                done += objects.count
                progress(className.rawValue, done, total)
            }
        }
        if let files { try await exportFiles(files, emit: emit, progress: progress) }
    }

    static func objectLine(_ className: ClassName, _ object: StoredObject, _ relations: [String: JSON]) -> JSON {
        [
            "className": .string(className.rawValue), "objectId": .string(object.objectId), "createdAt": .string(object.createdAt.iso),
            "updatedAt": .string(object.updatedAt.iso), "ACL": object.acl?.json ?? .null, "fields": .object(object.fields),
            "relations": .object(relations),
        ]
    }

    /// The objectIds in `field`'s relation of one object, sorted.
    static func relatedIds(_ store: any DataStore, _ owner: String, _ className: ClassName, _ field: String, _ schema: ClassSchema) async throws
        -> [String]
    {
        guard case .relation(let target)? = schema.fields[field] else { return [] }
        var options = FindOptions()
        options.limit = 1_000_000
        let request = FindRequest(
            className: target, query: .relatedTo(owner: ObjectRef(className: className, objectId: owner), key: try FieldName(field)),
            options: options, scope: AccessScope(classes: Dictionary([(target, .master), (className, .master)]) { first, _ in first }))
        return try await store.find(request).map(\.objectId).sorted()
    }

    static func line(_ json: JSON) -> String { DocumentCoding.canonicalString(json) }

    /// Reads an export into `store`, which must hold no class yet, and its files into `files`;
    /// `progress` hears the lines done.
    package static func importing(
        _ lines: some Sequence<String>, into store: any DataStore, files: (any FileStore)? = nil, progress: (Int) -> Void = { _ in }
    ) async throws {
        guard try await store.allSchemas().isEmpty else { throw TransferError("the target database is not empty: import needs a new database") }
        var number = 0
        var schemas: [ClassName: ClassSchema] = [:]
        var pending: [WriteOperation] = []
        var updates: [WriteOperation] = []
        func flush() async throws {
            if !pending.isEmpty { _ = try await store.write(pending) }
            if !updates.isEmpty { _ = try await store.write(updates) }
            pending.removeAll()
            updates.removeAll()
        }
        var iterator = lines.makeIterator()
        // The next non-empty line (a file's chunk lines are pulled by the file's import).
        func nextLine() -> String? {
            while let text = iterator.next() {
                if !text.isEmpty {
                    number += 1
                    return text
                }
            }
            return nil
        }
        while let text = nextLine() {
            let json: JSON
            do { json = try JSONParser.parse(text, maxDepth: 256) } catch { throw TransferError("line \(number): not JSON") }
            if number == 1 {
                guard json["format"] == header["format"], json["version"] == header["version"] else {
                    throw TransferError("line 1: not a rooftop export (or a newer format)")
                }
                continue
            }
            if let file = json["file"] {
                try await flush()
                try await importFile(file, into: files, line: number, next: nextLine)
            } else if let schema = json["schema"] {
                try await flush()
                guard let name = schema["className"]?.stringValue, let definition = schema["definition"] else {
                    throw TransferError("line \(number): a schema line needs className and definition")
                }
                let decoded = try SchemaCoding.decode(className: name, json: DocumentCoding.canonicalString(definition))
                _ = try await store.alterSchema(decoded.className) { _ in decoded }
                schemas[decoded.className] = decoded
            } else {
                let (insert, update) = try operations(json, schemas: schemas, line: number)
                pending.append(insert)
                updates.append(update)
                if pending.count >= page { try await flush() }
            }
            progress(number)
        }
        try await flush()
    }

    /// The insert (at `createdAt`) and the update that adds relations and sets `updatedAt`.
    static func operations(_ json: JSON, schemas: [ClassName: ClassSchema], line: Int) throws -> (WriteOperation, WriteOperation) {
        guard let name = json["className"]?.stringValue, let objectId = json["objectId"]?.stringValue,
            let created = json["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)),
            let updated = json["updatedAt"]?.stringValue.flatMap(ParseDate.init(iso:)), let fields = json["fields"]?.objectValue
        else { throw TransferError("line \(line): an object line needs className, objectId, createdAt, updatedAt and fields") }
        let className = try ClassName(name)
        var write = ObjectWrite()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            write.operations.append((FieldPath(field: try FieldName.stored(key)), .set(value)))
        }
        if let acl = json["ACL"], !acl.isNull { write.acl = try ACL(json: acl) }
        var relations = ObjectWrite()
        for (field, ids) in (json["relations"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let refs = (ids.arrayValue ?? []).compactMap(\.stringValue)
            guard !refs.isEmpty else { continue }
            guard case .relation(let target)? = schemas[className]?.fields[field] else {
                throw TransferError("line \(line): \(field) is not a relation of \(name)")
            }
            relations.operations.append(
                (FieldPath(field: try FieldName(field)), .relation(add: refs.map { ObjectRef(className: target, objectId: $0) }, remove: [])))
        }
        let grant = SchemaGrant(createClass: false, addFields: true)
        return (
            .insert(className: className, objectId: objectId, at: created, write: write, grant: grant),
            .update(className: className, objectId: objectId, at: updated, write: relations, access: .master, grant: grant)
        )
    }
}

/// Why an export could not be read or imported.
package struct TransferError: Error, CustomStringConvertible {
    /// What is wrong, with the line when there is one.
    package let description: String
    init(_ description: String) { self.description = description }
}
