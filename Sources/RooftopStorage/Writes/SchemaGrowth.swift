package import RooftopCore

/// What one create or update may do to its class's schema.
///
/// Both adapters plan with this inside their write transaction, against the schema as that
/// transaction sees it, so concurrent first writes of a field are serialized: the second one
/// sees the first one's type and fails with 111 if it differs.
package struct SchemaGrowth: Sendable, Equatable {
    /// The class's schema with the write's field types, which the row is written against.
    package var schema: ClassSchema
    /// Whether `schema` must be saved: the class is new, or the write adds fields.
    package var needsSave: Bool

    /// Plans `write` against `stored` (nil when the class does not exist).
    ///
    /// Refuses, in this order: a malformed value (its own code), a nested relation (105), a
    /// type other than the recorded one or a nested key on a non-Object field (111), a
    /// change `grant` does not allow (119), and more fields than `grant.maxFields` (255).
    package init(_ className: ClassName, stored: ClassSchema?, write: ObjectWrite, grant: SchemaGrant) throws(ParseError) {
        let proposed = try Self.proposedTypes(write)
        guard let stored else {
            // Refused before the types are merged: a class the caller may not create says so,
            // whatever the body holds.
            guard grant.createClass else {
                throw ParseError(.operationForbidden, "This user is not allowed to access non-existent class: \(className)")
            }
            var schema = ClassSchema(className: className)
            _ = try schema.merge(proposed)
            try schema.checkFieldCount(max: grant.maxFields)
            self.init(schema: schema, needsSave: true)
            return
        }
        let (schema, added) = try Self.merged(stored, proposed, write)
        if !added.isEmpty && !grant.addFields {
            throw ParseError(.operationForbidden, "Permission denied for action addField on class \(className).")
        }
        // Only a write that adds fields is refused: a class already over a lowered cap stays writable.
        if !added.isEmpty { try schema.checkFieldCount(max: grant.maxFields) }
        self.init(schema: schema, needsSave: !added.isEmpty)
    }

    init(schema: ClassSchema, needsSave: Bool) {
        self.schema = schema
        self.needsSave = needsSave
    }

    /// `stored` with the write's types when the write adds no field to it, nil when it would.
    ///
    /// For a store that checks without a lock first and takes one only when the schema must
    /// grow (PostgreSQL): the same refusals as `init`, except the grant, which is judged once
    /// the schema is read again under the lock.
    package static func unchanged(_ stored: ClassSchema, by write: ObjectWrite) throws(ParseError) -> ClassSchema? {
        let (schema, added) = try merged(stored, try proposedTypes(write), write)
        return added.isEmpty ? schema : nil
    }

    /// The field types the write's top-level operations imply; relations can't be nested.
    private static func proposedTypes(_ write: ObjectWrite) throws(ParseError) -> [String: FieldType] {
        let proposed = try write.impliedTypes()
        for (path, op) in write.operations where !path.subkeys.isEmpty {
            if case .relation = op { throw ParseError(.invalidKeyName, "relations cannot be nested") }
        }
        return proposed
    }

    private static func merged(
        _ stored: ClassSchema, _ proposed: [String: FieldType], _ write: ObjectWrite
    ) throws(ParseError) -> (ClassSchema, added: [String]) {
        var schema = stored
        let added = try schema.merge(proposed)
        // Dot-path writes may only go into Object fields.
        for (path, _) in write.operations where !path.subkeys.isEmpty {
            if let type = schema.fields[path.field.rawValue], type != .object {
                throw ParseError(.incorrectType, "cannot set a nested key on \(path.field) of type \(type.name)")
            }
        }
        return (schema, added)
    }
}
