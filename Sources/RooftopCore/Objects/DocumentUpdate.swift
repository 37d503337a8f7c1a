/// Applies field operations to a stored document: the pure half of an update.
///
/// The store runs this inside the write transaction that re-reads the row, so `Increment` and
/// friends are atomic without any SQL of their own.
public enum DocumentUpdate {
    /// Applies `write`'s non-relation operations to `document`.
    ///
    /// - Returns: the values to echo in the response (results of atomic ops), keyed as sent.
    @discardableResult
    public static func apply(_ write: ObjectWrite, to document: inout [String: JSON]) throws(ParseError) -> [String: JSON] {
        var echo: [String: JSON] = [:]
        for (path, op) in write.operations {
            if case .relation = op { continue }
            // `{"__type":"Relation"}` only declares the field's type; members live in join tables.
            if case .set(let value) = op, path.subkeys.isEmpty, value.parseType == "Relation" { continue }
            let result = try apply(op, at: [path.field.rawValue] + path.subkeys, in: &document)
            switch op {
            case .increment, .add, .addUnique, .remove: echo[path.description] = result ?? .null
            default: break
            }
        }
        return echo
    }

    private static func apply(_ op: FieldOperation, at keys: [String], in object: inout [String: JSON]) throws(ParseError) -> JSON? {
        guard let key = keys.first else { return nil }
        if keys.count > 1 {
            var child: [String: JSON]
            switch object[key] {
            case .object(let existing)?: child = existing
            case nil, .null?: child = [:]
            default: throw ParseError(.incorrectType, "cannot set a nested key on a non-object field \(key)")
            }
            let result = try apply(op, at: Array(keys.dropFirst()), in: &child)
            object[key] = .object(child)
            return result
        }
        let current = object[key]
        let next: JSON?
        switch op {
        case .set(let value): next = value
        case .delete: next = nil
        case .increment(let amount):
            switch current {
            case nil, .null?: next = .number(amount)
            case .number(let n)?: next = .number(n + amount)
            default: throw ParseError(.invalidJSON, "Cannot increment a field that is not a number: \(key)")
            }
        case .add(let items): next = .array(try array(current, key) + items)
        case .addUnique(let items):
            var values = try array(current, key)
            for item in items where !values.contains(item) { values.append(item) }
            next = .array(values)
        case .remove(let items): next = .array(try array(current, key).filter { !items.contains($0) })
        case .relation: return nil
        }
        object[key] = next
        return next
    }

    private static func array(_ value: JSON?, _ key: String) throws(ParseError) -> [JSON] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw ParseError(.incorrectType, "field \(key) is not an array")
        }
    }
}
