/// A parsed `where` constraint tree. Every identifier in it is already validated.
public indirect enum QueryNode: Sendable, Equatable {
    /// All must hold.
    case and([QueryNode])
    /// Any must hold.
    case or([QueryNode])
    /// None may hold.
    case nor([QueryNode])
    /// A condition on one field path.
    case field(FieldPath, Condition)
    /// The object is in `key`'s relation of `owner` (`$relatedTo`).
    case relatedTo(owner: ObjectRef, key: FieldName)
    /// Matches nothing (an operator object where a plain value is required, and the like).
    case never

    /// Matches everything.
    public static let always = QueryNode.and([])
}

/// Comparison operators.
public enum Comparison: String, Sendable, Equatable {
    case lt = "<", lte = "<=", gt = ">", gte = ">="
}

/// A subquery on another class (`$inQuery`, `$select`).
public struct SubQuery: Sendable, Equatable {
    /// The class queried.
    public let className: ClassName
    /// Its constraints.
    public let query: QueryNode

    /// Creates a subquery.
    public init(className: ClassName, query: QueryNode) {
        self.className = className
        self.query = query
    }
}

/// A condition on one field.
public enum Condition: Sendable, Equatable {
    case equals(JSON)
    case notEquals(JSON)
    case compare(Comparison, JSON)
    case isIn([JSON])
    case notIn([JSON])
    case exists(Bool)
    case all([JSON])
    case containedBy([JSON])
    case regex(pattern: String, options: String)
    case inQuery(SubQuery)
    case notInQuery(SubQuery)
    case select(SubQuery, key: FieldPath)
    case dontSelect(SubQuery, key: FieldPath)
}
