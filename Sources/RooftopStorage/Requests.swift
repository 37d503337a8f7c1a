package import RooftopCore

/// A query to run.
package struct FindRequest: Sendable {
    /// The class queried.
    package var className: ClassName
    /// The constraints.
    package var query: QueryNode
    /// Order, limit and skip (keys and include are applied by the services).
    package var options: FindOptions
    /// The caller's access to every class involved (the main class and any subquery class).
    package var scope: AccessScope

    /// Creates a request.
    package init(className: ClassName, query: QueryNode, options: FindOptions = FindOptions(), scope: AccessScope) {
        self.className = className
        self.query = query
        self.options = options
        self.scope = scope
    }
}

/// Permission to change the schema as part of a write.
package struct SchemaGrant: Sendable, Equatable {
    /// Whether the class may be created by this write.
    package var createClass: Bool
    /// Whether new fields may be added by this write.
    package var addFields: Bool
    /// The most fields the class may have once this write has added its own (`maxFieldsPerClass`).
    package var maxFields: Int

    /// Creates a grant.
    package init(createClass: Bool, addFields: Bool, maxFields: Int = .max) {
        self.createClass = createClass
        self.addFields = addFields
        self.maxFields = maxFields
    }
}

/// One write inside an atomic group.
package enum WriteOperation: Sendable {
    /// Create an object.
    case insert(className: ClassName, objectId: String, at: ParseDate, write: ObjectWrite, grant: SchemaGrant)
    /// Update an object the caller can write.
    case update(className: ClassName, objectId: String, at: ParseDate, write: ObjectWrite, access: Access, grant: SchemaGrant)
    /// Delete an object the caller can write.
    case delete(className: ClassName, objectId: String, access: Access)
}

extension WriteOperation {
    /// The class written.
    package var className: ClassName {
        switch self {
        case .insert(let className, _, _, _, _), .update(let className, _, _, _, _, _), .delete(let className, _, _): className
        }
    }
}

extension WriteOperation {
    /// The object written.
    package var objectId: String {
        switch self {
        case .insert(_, let id, _, _, _), .update(_, let id, _, _, _, _), .delete(_, let id, _): id
        }
    }
}

/// The outcome of one write.
package enum WriteOutcome: Sendable, Equatable {
    /// The object was created.
    case inserted(StoredObject)
    /// The object was updated; `echo` holds the results of atomic operations.
    case updated(updatedAt: ParseDate, echo: [String: JSON])
    /// The object was deleted.
    case deleted
}

extension FindRequest {
    /// Whether the request reads at most one row found by its primary key, with no condition
    /// that could read another row or class: a get by id (with the caller's ACL, CLP and plain
    /// comparisons on that one row). Such a read costs microseconds, so a store may run it on the
    /// calling thread instead of handing it to a reader thread and back (docs/benchmarks.md).
    package var isPointLookup: Bool {
        Self.pinsObjectId(query) && Self.isLocal(query)
    }

    /// The node requires `objectId` to equal one string.
    static func pinsObjectId(_ node: QueryNode) -> Bool {
        switch node {
        case .field(let path, .equals(.string(_))): path.field == .objectId && path.subkeys.isEmpty
        case .and(let nodes): nodes.contains(where: pinsObjectId)
        default: false
        }
    }

    /// The node is decided by the row's own columns: no subquery, relation, regex or array scan.
    static func isLocal(_ node: QueryNode) -> Bool {
        switch node {
        case .and(let nodes), .or(let nodes), .nor(let nodes): nodes.allSatisfy(isLocal)
        case .never: true
        case .relatedTo: false
        case .field(_, let condition):
            switch condition {
            case .equals, .notEquals, .compare, .exists: true
            case .isIn(let values), .notIn(let values): values.count <= 100
            default: false
            }
        }
    }
}
