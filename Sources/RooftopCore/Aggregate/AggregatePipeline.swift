/// A parsed `/aggregate` pipeline.
///
/// Field references (`"$score"`, `"$stats.wins"`) are validated paths, so nothing a client
/// sends is ever interpreted as code or SQL.
public struct AggregatePipeline: Sendable, Equatable {
    /// A value computed per document: a constant or a field.
    public enum Expression: Sendable, Equatable {
        case constant(JSON)
        case field(FieldPath)

        init(_ json: JSON) throws(ParseError) {
            if case .string(let text) = json, text.hasPrefix("$") {
                self = .field(try FieldPath(parsing: String(text.dropFirst())))
            } else if case .object = json {
                throw ParseError(.invalidQuery, "Expression operators are not supported in aggregate.")
            } else {
                self = .constant(json)
            }
        }
    }

    /// A `$group` accumulator.
    public enum Accumulator: Sendable, Equatable {
        case sum(Expression), avg(Expression), min(Expression), max(Expression), count
    }

    /// One stage.
    public enum Stage: Sendable, Equatable {
        case match(QueryNode)
        /// `_id` expressions by output key (a single unnamed key uses `""`), and accumulators.
        case group(id: [String: Expression]?, compound: Bool, accumulators: [String: Accumulator])
        case sort(FieldPath, descending: Bool)
        case limit(Int)
        case skip(Int)
        case project(include: Set<String>, exclude: Set<String>)
        case count(String)
    }

    /// The stages, in order.
    public var stages: [Stage]

    /// The most stages one pipeline may have.
    public static let maxStages = 32

    /// Parses `[{"$match":…},{"$group":…},…]` (a single stage object is accepted too).
    public init(json: JSON, limits: QueryLimits = QueryLimits()) throws(ParseError) {
        let items: [JSON]
        switch json {
        case .array(let list): items = list
        case .object: items = [json]
        default: throw ParseError(.invalidQuery, "pipeline must be an array of stages")
        }
        guard items.count <= Self.maxStages else { throw ParseError(.invalidQuery, "pipeline has too many stages") }
        stages = []
        for item in items {
            guard case .object(let members) = item, members.count == 1, let (name, spec) = members.first else {
                throw ParseError(.invalidQuery, "each pipeline stage must be an object with one stage name")
            }
            stages.append(try Self.stage(name, spec, limits: limits))
        }
    }

    /// Parses one stage given by name (also used for stages sent as top-level parameters).
    public static func stage(_ name: String, _ spec: JSON, limits: QueryLimits) throws(ParseError) -> Stage {
        switch name {
        case "$match": return .match(try QueryNode.parse(where: spec, limits: limits))
        case "$group": return try group(spec)
        case "$sort":
            guard case .object(let keys) = spec, keys.count == 1, let (field, direction) = keys.first,
                let number = direction.numberValue, number == 1 || number == -1
            else {
                throw ParseError(.invalidQuery, "$sort takes one field with 1 or -1; chain $sort stages for ties (the last one wins)")
            }
            return .sort(try FieldPath(parsing: field), descending: number < 0)
        case "$limit", "$skip":
            guard let number = spec.numberValue, number >= 0, number <= 1e9, number == number.rounded() else {
                throw ParseError(.invalidQuery, "\(name) must be a non-negative integer")
            }
            return name == "$limit" ? .limit(Int(number)) : .skip(Int(number))
        case "$project":
            guard case .object(let fields) = spec, !fields.isEmpty else { throw ParseError(.invalidQuery, "$project must be an object") }
            var include: Set<String> = []
            var exclude: Set<String> = []
            for (field, flag) in fields {
                _ = try FieldName(field)
                switch flag {
                case .bool(true), .number(1): include.insert(field)
                case .bool(false), .number(0): exclude.insert(field)
                default: throw ParseError(.invalidQuery, "$project values must be 1/0 or true/false")
                }
            }
            if !include.isEmpty && !exclude.subtracting(["objectId"]).isEmpty {
                throw ParseError(.invalidQuery, "$project cannot mix inclusion and exclusion")
            }
            return .project(include: include, exclude: exclude)
        case "$count":
            guard case .string(let field) = spec, FieldName.isIdentifier(field) else {
                throw ParseError(.invalidQuery, "$count takes a field name")
            }
            return .count(field)
        default:
            throw ParseError(.invalidQuery, "Invalid aggregate stage '\(ClassName.printable(name))'.")
        }
    }

    static func group(_ spec: JSON) throws(ParseError) -> Stage {
        guard case .object(let members) = spec else { throw ParseError(.invalidQuery, "$group must be an object") }
        if members["objectId"] != nil {
            throw ParseError(.invalidQuery, "Cannot use 'objectId' in aggregation stage $group; use '_id'.")
        }
        guard let idSpec = members["_id"] else { throw ParseError(.invalidQuery, "$group needs an _id") }
        var id: [String: Expression]?
        var compound = false
        switch idSpec {
        case .null: id = nil
        case .object(let parts):
            compound = true
            id = [:]
            for (key, part) in parts {
                _ = try FieldName(key)
                id?[key] = try Expression(part)
            }
        default: id = ["": try Expression(idSpec)]
        }
        var accumulators: [String: Accumulator] = [:]
        for (key, value) in members where key != "_id" {
            _ = try FieldName(key)
            guard case .object(let op) = value, op.count == 1, let (name, argument) = op.first else {
                throw ParseError(.invalidQuery, "$group field \(key) needs one accumulator")
            }
            switch name {
            case "$sum": accumulators[key] = .sum(try Expression(argument))
            case "$avg": accumulators[key] = .avg(try Expression(argument))
            case "$min": accumulators[key] = .min(try Expression(argument))
            case "$max": accumulators[key] = .max(try Expression(argument))
            case "$count":
                guard argument == [:] else { throw ParseError(.invalidQuery, "$count takes {}") }
                accumulators[key] = .count
            default: throw ParseError(.invalidQuery, "Unsupported accumulator \(ClassName.printable(name)).")
            }
        }
        return .group(id: id, compound: compound, accumulators: accumulators)
    }
}
