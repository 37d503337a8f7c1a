extension QueryNode {
    /// Parses a Parse `where` object.
    ///
    /// Field names must be identifiers (105); unknown or unsupported operators are 102; `ACL`
    /// cannot be queried (102); limits apply over the whole tree, subqueries included.
    public static func parse(where json: JSON, limits: QueryLimits = QueryLimits()) throws(ParseError) -> QueryNode {
        var budget = limits.maxConditions
        return try parse(json, limits: limits, depth: 0, budget: &budget)
    }

    private static func parse(_ json: JSON, limits: QueryLimits, depth: Int, budget: inout Int) throws(ParseError) -> QueryNode {
        guard depth <= limits.maxDepth else { throw ParseError(.invalidQuery, "Query is nested too deeply.") }
        guard case .object(let members) = json else { throw ParseError(.invalidQuery, "where must be an object") }
        var nodes: [QueryNode] = []
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "$or", "$and", "$nor":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw ParseError(.invalidQuery, "Bad \(key) format - use an array of at least 1 value.")
                }
                var children: [QueryNode] = []
                for item in items { children.append(try parse(item, limits: limits, depth: depth + 1, budget: &budget)) }
                nodes.append(key == "$or" ? .or(children) : key == "$and" ? .and(children) : .nor(children))
            case "$relatedTo":
                guard let object = value["object"], let keyName = value["key"]?.stringValue else {
                    throw ParseError(.invalidQuery, "$relatedTo needs object and key")
                }
                nodes.append(.relatedTo(owner: try ObjectRef(pointer: object), key: try FieldName(keyName)))
            case "ACL":
                throw ParseError(.invalidQuery, "Cannot query on ACL.")
            default:
                if key.hasPrefix("$") { throw ParseError(.invalidQuery, "Invalid key name: \(ClassName.printable(key))") }
                let path = try FieldPath(parsing: key)
                nodes.append(contentsOf: try conditions(path, value, limits: limits, depth: depth, budget: &budget))
            }
            budget -= 1
            guard budget >= 0 else { throw ParseError(.invalidQuery, "Query has too many conditions.") }
        }
        return nodes.count == 1 ? nodes[0] : .and(nodes)
    }

    private static func conditions(
        _ path: FieldPath, _ value: JSON, limits: QueryLimits, depth: Int, budget: inout Int
    ) throws(ParseError) -> [QueryNode] {
        guard case .object(let ops) = value, ops.keys.contains(where: { $0.hasPrefix("$") }) else {
            return [.field(path, .equals(value))]
        }
        var result: [QueryNode] = []
        for (op, operand) in ops.sorted(by: { $0.key < $1.key }) {
            budget -= 1
            guard budget >= 0 else { throw ParseError(.invalidQuery, "Query has too many conditions.") }
            let condition: Condition
            switch op {
            case "$eq": condition = .equals(operand)
            case "$ne": condition = .notEquals(operand)
            case "$lt": condition = .compare(.lt, operand)
            case "$lte": condition = .compare(.lte, operand)
            case "$gt": condition = .compare(.gt, operand)
            case "$gte": condition = .compare(.gte, operand)
            case "$in": condition = .isIn(try list(operand, op, limits))
            case "$nin": condition = .notIn(try list(operand, op, limits))
            case "$all": condition = .all(try list(operand, op, limits))
            case "$containedBy": condition = .containedBy(try list(operand, op, limits))
            case "$exists":
                guard case .bool(let flag) = operand else { throw ParseError(.invalidQuery, "$exists must be a boolean") }
                condition = .exists(flag)
            case "$regex":
                guard case .string(let pattern) = operand else { throw ParseError(.invalidQuery, "$regex must be a string") }
                guard pattern.utf8.count <= limits.maxRegexLength else { throw ParseError(.invalidQuery, "$regex is too long") }
                let options = ops["$options"]?.stringValue ?? ""
                if let given = ops["$options"], given.stringValue == nil { throw ParseError(.invalidQuery, "$options must be a string") }
                guard options.allSatisfy({ "imxs".contains($0) }) else {
                    throw ParseError(.invalidQuery, "Bad $options value for query: \(ClassName.printable(options))")
                }
                // Compiled here so a bad pattern is a 102 before any SQL runs.
                _ = try BoundedRegex(pattern, options: options)
                condition = .regex(pattern: pattern, options: options)
            case "$options":
                guard ops["$regex"] != nil else { throw ParseError(.invalidQuery, "$options needs $regex") }
                continue
            case "$inQuery", "$notInQuery":
                let sub = try subquery(operand, limits: limits, depth: depth, budget: &budget)
                condition = op == "$inQuery" ? .inQuery(sub) : .notInQuery(sub)
            case "$select", "$dontSelect":
                guard case .object(let spec) = operand, spec.count == 2, let query = spec["query"], let key = spec["key"]?.stringValue else {
                    throw ParseError(.invalidQuery, "improper usage of \(op)")
                }
                let sub = try subquery(query, limits: limits, depth: depth, budget: &budget)
                let keyPath = try FieldPath(parsing: key)
                condition = op == "$select" ? .select(sub, key: keyPath) : .dontSelect(sub, key: keyPath)
            case "$text", "$nearSphere", "$within", "$geoWithin", "$geoIntersects", "$maxDistance", "$maxDistanceInRadians",
                "$maxDistanceInMiles", "$maxDistanceInKilometers":
                throw ParseError(.invalidQuery, "The \(op) operator is not supported yet.")
            default:
                throw ParseError(.invalidQuery, "bad constraint: \(ClassName.printable(op))")
            }
            result.append(.field(path, condition))
        }
        return result
    }

    private static func list(_ operand: JSON, _ op: String, _ limits: QueryLimits) throws(ParseError) -> [JSON] {
        guard case .array(let values) = operand else { throw ParseError(.invalidQuery, "bad \(op) value") }
        guard values.count <= limits.maxInValues else { throw ParseError(.invalidQuery, "\(op) has too many values") }
        return values
    }

    private static func subquery(_ json: JSON, limits: QueryLimits, depth: Int, budget: inout Int) throws(ParseError) -> SubQuery {
        guard let cls = json["className"]?.stringValue else { throw ParseError(.invalidQuery, "subquery needs a className") }
        let whereJSON = json["where"] ?? [:]
        let node = try parse(whereJSON, limits: limits, depth: depth + 1, budget: &budget)
        return SubQuery(className: try ClassName(cls), query: node)
    }
}
