package import RooftopCore

/// What a schema change or a class drop takes away, for the adapter to drop.
package struct SchemaRemoval: Sendable {
    /// A field the next schema no longer has: every object loses its value, and a relation its
    /// join table (any other field its pointer index, if it had one).
    package struct Field: Sendable, Equatable {
        /// The field's name.
        package var name: String
        /// Whether it was a relation.
        package var isRelation: Bool
    }

    /// The removed fields, sorted by name.
    package var fields: [Field]
    /// The removed `/schemas` indexes, sorted by name.
    package var indexes: [String]

    /// What going from `old` to `next` removes.
    package init(from old: ClassSchema, to next: ClassSchema) {
        fields = old.fields.sorted { $0.key < $1.key }.compactMap { name, type in
            guard next.fields[name] == nil else { return nil }
            if case .relation = type { return Field(name: name, isRelation: true) }
            return Field(name: name, isRelation: false)
        }
        indexes = old.indexes.keys.sorted().filter { next.indexes[$0] == nil }
    }

    /// Dropping a class that does not exist.
    package static func missingClass(_ className: ClassName) -> ParseError {
        ParseError(.invalidClassName, "Class \(className) does not exist.")
    }

    /// Dropping a class that still has objects (255).
    package static func classNotEmpty(_ className: ClassName) -> ParseError {
        ParseError(.invalidSchemaOperation, "Class \(className) is not empty, contains objects, cannot drop schema.")
    }
}
