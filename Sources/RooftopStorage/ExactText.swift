package import RooftopCore

/// The one rule about U+0000 (NUL) both adapters share, so text is exact on both or refused on
/// both.
///
/// PostgreSQL's `text` and `jsonb` cannot hold NUL at all, and SQLite's driver binds text as C
/// strings, so `"admin\u0000x"` was compared as `"admin"` there. A value with NUL is therefore
/// refused before any SQL is built: 107 for a write (nothing is stored) and for a query (the
/// value could match nothing stored). Values already stored are left alone.
package enum ExactText {
    /// The answer to a value with NUL.
    package static let refused = ParseError(.invalidJSON, "Strings may not contain the NUL character (\\u0000).")

    /// Whether `text` holds NUL.
    @inlinable package static func hasNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    /// Whether any string or object key inside `value` holds NUL.
    package static func hasNUL(_ value: JSON) -> Bool {
        switch value {
        case .string(let s): hasNUL(s)
        case .array(let items): items.contains(where: hasNUL)
        case .object(let members): members.contains { hasNUL($0.key) || hasNUL($0.value) }
        case .null, .bool, .number: false
        }
    }

    /// Refuses a group of writes, before any of it runs, when one would bind or store text with
    /// NUL (see `check(_:objectId:)`).
    package static func check(_ operations: [WriteOperation]) throws(ParseError) {
        for operation in operations {
            switch operation {
            case .insert(_, let objectId, _, let write, _), .update(_, let objectId, _, let write, _, _):
                try check(write, objectId: objectId)
            case .delete(_, let objectId, _):
                if hasNUL(objectId) { throw refused }
            }
        }
    }

    /// Refuses a write that would store text with NUL: a value it sets or adds, a relation or
    /// ACL entry, or its objectId. Values it only removes may hold anything.
    package static func check(_ write: ObjectWrite, objectId: String) throws(ParseError) {
        if hasNUL(objectId) { throw refused }
        if let id = write.objectId, hasNUL(id) { throw refused }
        for (_, op) in write.operations {
            switch op {
            case .set(let value): if hasNUL(value) { throw refused }
            case .add(let values), .addUnique(let values): if values.contains(where: hasNUL) { throw refused }
            case .relation(let add, let remove):
                if (add + remove).contains(where: { hasNUL($0.objectId) }) { throw refused }
            case .delete, .increment, .remove: continue
            }
        }
        if let acl = write.acl, acl.readers.contains(where: hasNUL) || acl.writers.contains(where: hasNUL) { throw refused }
    }

    /// Refuses a query with NUL in any value it compares, pattern or subquery.
    package static func check(_ node: QueryNode) throws(ParseError) {
        switch node {
        case .and(let children), .or(let children), .nor(let children):
            for child in children { try check(child) }
        case .never:
            return
        case .relatedTo(let owner, _):
            if hasNUL(owner.objectId) { throw refused }
        case .field(_, let condition):
            try check(condition)
        }
    }

    private static func check(_ condition: Condition) throws(ParseError) {
        switch condition {
        case .equals(let value), .notEquals(let value), .compare(_, let value):
            if hasNUL(value) { throw refused }
        case .isIn(let values), .notIn(let values), .all(let values), .containedBy(let values):
            if values.contains(where: hasNUL) { throw refused }
        case .exists:
            return
        case .regex(let pattern, let options):
            if hasNUL(pattern) || hasNUL(options) { throw refused }
        case .inQuery(let sub), .notInQuery(let sub), .select(let sub, _), .dontSelect(let sub, _):
            try check(sub.query)
        }
    }

    /// A rate-limit key as stored: NUL (which neither database can bind exactly) and the escape
    /// character itself are escaped, so distinct keys stay distinct; other keys are unchanged.
    package static func rateLimitKey(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\\") }) else { return key }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\0": escaped += "\\0"
            case "\\": escaped += "\\\\"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
