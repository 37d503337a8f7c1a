package import RooftopCore
package import RooftopStorage

/// `/schemas` use cases (master key only): list, read, create, update and delete classes.
package struct Schemas: Sendable {
    let store: any DataStore
    let maxFieldsPerClass: Int

    /// Creates the use cases over a store; `maxFieldsPerClass` caps what `/schemas` may add.
    package init(store: any DataStore, maxFieldsPerClass: Int = ServicesConfiguration().maxFieldsPerClass) {
        self.store = store
        self.maxFieldsPerClass = maxFieldsPerClass
    }

    /// Every class's schema.
    package func all() async throws -> [ClassSchema] { try await store.allSchemas() }

    /// One class's schema (103 when it does not exist).
    package func get(_ className: ClassName) async throws -> ClassSchema {
        guard let schema = try await store.schema(className) else { throw Self.missing(className) }
        return schema
    }

    /// Creates a class; 103 if it exists already.
    package func create(_ className: ClassName, body: [String: JSON]) async throws -> ClassSchema {
        try Objects.refuseAuditWrites(className)
        let patch = try SchemaPatch(body: body, className: className)
        guard patch.deleteFields.isEmpty, patch.deleteIndexes.isEmpty else {
            throw ParseError(.invalidSchemaOperation, "Cannot delete fields or indexes of a class being created.")
        }
        return try await store.alterSchema(className) { current in
            if current != nil { throw ParseError(.invalidClassName, "Class \(className) already exists.") }
            let schema = try patch.apply(to: nil, className: className)
            try schema.checkFieldCount(max: maxFieldsPerClass)
            return schema
        }
    }

    /// Adds or deletes fields and indexes and replaces CLPs; 103 if the class does not exist.
    package func update(_ className: ClassName, body: [String: JSON]) async throws -> ClassSchema {
        // Deleting a field of the audit log would erase part of every event.
        try Objects.refuseAuditWrites(className)
        let patch = try SchemaPatch(body: body, className: className)
        return try await store.alterSchema(className) { current in
            guard let current else { throw Self.missing(className) }
            let schema = try patch.apply(to: current, className: className)
            // Only growth is refused: a class over a lowered cap can still lose fields.
            if !patch.addFields.isEmpty { try schema.checkFieldCount(max: maxFieldsPerClass) }
            return schema
        }
    }

    /// Deletes an empty class (255 when objects remain); deleting a missing class succeeds, as in Parse.
    package func delete(_ className: ClassName) async throws {
        try Objects.refuseAuditWrites(className)
        guard try await store.schema(className) != nil else { return }
        do {
            try await store.deleteClass(className)
        } catch let error as ParseError where error.code == .invalidClassName {
            return  // deleted concurrently
        }
    }

    static func missing(_ className: ClassName) -> ParseError {
        ParseError(.invalidClassName, "Class \(className) does not exist.")
    }
}
