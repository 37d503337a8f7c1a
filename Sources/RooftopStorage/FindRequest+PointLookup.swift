package import RooftopCore

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
