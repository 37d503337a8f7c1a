package import RooftopCore

/// Membership changes of one relation field, for the join table `QueryCompiler.joinTable` names.
package struct RelationEdit: Sendable, Equatable {
    /// The relation field.
    package var field: String
    /// Object ids to add (already members are left as they are).
    package var adds: [String]
    /// Object ids to remove.
    package var removes: [String]

    /// The write's relation operations, in the write's order.
    package static func of(_ write: ObjectWrite) -> [RelationEdit] {
        write.operations.compactMap { path, op in
            guard case .relation(let adds, let removes) = op else { return nil }
            return RelationEdit(field: path.field.rawValue, adds: adds.map(\.objectId), removes: removes.map(\.objectId))
        }
    }
}

extension ClassSchema {
    /// The class's relation fields, sorted: each has a join table, dropped or emptied with it.
    package var relationFields: [String] {
        fields.compactMap { name, type in
            if case .relation = type { return name }
            return nil
        }.sorted()
    }
}
