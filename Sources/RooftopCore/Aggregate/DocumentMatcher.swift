/// Evaluates a `QueryNode` against an in-memory document (aggregate `$match` after a
/// `$group`, where there is no table to compile SQL against).
public enum DocumentMatcher {
    /// Whether `document` satisfies `node`; subqueries and relations are 102 here.
    public static func matches(_ node: QueryNode, _ document: [String: JSON]) throws(ParseError) -> Bool {
        switch node {
        case .and(let nodes):
            for child in nodes where try !matches(child, document) { return false }
            return true
        case .or(let nodes):
            for child in nodes where try matches(child, document) { return true }
            return false
        case .nor(let nodes):
            for child in nodes where try matches(child, document) { return false }
            return true
        case .never: return false
        case .relatedTo: throw unsupported
        case .field(let path, let condition): return try holds(condition, value(at: path, in: document))
        }
    }

    static let unsupported = ParseError(.invalidQuery, "This constraint is not supported after the first aggregate stage.")

    /// The value at a dot path, or nil when missing.
    public static func value(at path: FieldPath, in document: [String: JSON]) -> JSON? {
        var current = document[path.field.rawValue]
        for key in path.subkeys { current = current?[key] }
        return current
    }

    static func equal(_ a: JSON, _ b: JSON) -> Bool {
        if a.parseType == "Pointer" || b.parseType == "Pointer" {
            return a["objectId"] == b["objectId"] && a["className"] == b["className"]
        }
        return JSONOrdering.compare(a, b) == 0
    }

    /// Equality on arrays means "contains", as in Parse.
    static func equalOrContains(_ stored: JSON?, _ wanted: JSON) -> Bool {
        guard let stored else { return wanted.isNull }
        if equal(stored, wanted) { return true }
        if case .array(let items) = stored { return items.contains { equal($0, wanted) } }
        return false
    }

    static func holds(_ condition: Condition, _ stored: JSON?) throws(ParseError) -> Bool {
        switch condition {
        case .equals(let wanted): return equalOrContains(stored, wanted)
        case .notEquals(let wanted): return !equalOrContains(stored, wanted)
        case .compare(let op, let bound):
            guard let stored, JSONOrdering.rank(stored) == JSONOrdering.rank(bound), !stored.isNull else { return false }
            let c = JSONOrdering.compare(stored, bound)
            switch op {
            case .lt: return c < 0
            case .lte: return c <= 0
            case .gt: return c > 0
            case .gte: return c >= 0
            }
        case .isIn(let values): return values.contains { equalOrContains(stored, $0) }
        case .notIn(let values): return !values.contains { equalOrContains(stored, $0) }
        case .exists(let flag): return (stored != nil) == flag
        case .all(let values):
            guard case .array(let items)? = stored else { return false }
            return values.allSatisfy { v in items.contains { equal($0, v) } }
        case .containedBy(let values):
            guard case .array(let items)? = stored else { return false }
            return items.allSatisfy { v in values.contains { equal($0, v) } }
        case .regex(let pattern, let options):
            guard case .string(let text)? = stored else { return false }
            return try BoundedRegex(pattern, options: options).matches(text)
        case .inQuery, .notInQuery, .select, .dontSelect: throw unsupported
        }
    }
}
