/// One `order` key.
public struct SortKey: Sendable, Equatable {
    /// The field sorted on.
    public let path: FieldPath
    /// Whether the order is descending (`-field`).
    public let descending: Bool

    /// Creates a sort key.
    public init(path: FieldPath, descending: Bool) {
        self.path = path
        self.descending = descending
    }
}

/// The non-`where` parameters of a query.
public struct FindOptions: Sendable, Equatable {
    /// Sort keys, in order.
    public var order: [SortKey] = []
    /// Most results returned.
    public var limit: Int = 100
    /// Results skipped.
    public var skip: Int = 0
    /// Fields to return (nil: all). Dot paths select inside included pointers.
    public var keys: [String]?
    /// Fields to drop.
    public var excludeKeys: [String] = []
    /// Pointer paths to expand.
    public var include: [[String]] = []
    /// Whether every pointer is expanded (`include=*`).
    public var includeAll = false
    /// Whether to return the total count.
    public var count = false

    /// Creates default options.
    public init() {}

    /// Reads `order`, `limit`, `skip`, `keys`, `excludeKeys`, `include` and `count` from lenient
    /// query parameters (JSON values, comma lists or JSON arrays).
    ///
    /// - Parameters:
    ///   - params: parameter values, JSON-decoded where they parsed.
    ///   - defaultLimit: the limit when none is given.
    ///   - maxLimit: the cap applied silently to any limit.
    public init(params: [String: JSON], defaultLimit: Int, maxLimit: Int, limits: QueryLimits) throws(ParseError) {
        self.init()
        limit = defaultLimit
        if let value = params["limit"] {
            guard let n = FindOptions.integer(value), n >= 0 else { throw ParseError(.invalidQuery, "Invalid value for limit.") }
            limit = n
        }
        limit = min(limit, maxLimit)
        if let value = params["skip"] {
            guard let n = FindOptions.integer(value), n >= 0 else { throw ParseError(.invalidQuery, "Invalid value for skip.") }
            skip = min(n, 100_000_000)
        }
        if let value = params["count"] {
            count = value == .bool(true) || value == .number(1) || value == .string("1") || value == .string("true")
        }
        if let value = params["order"] {
            for item in try FindOptions.list(value, "order") {
                let descending = item.hasPrefix("-")
                let name = descending ? String(item.dropFirst()) : item
                order.append(SortKey(path: try FieldPath(parsing: name), descending: descending))
            }
        }
        if let value = params["keys"] {
            let items = try FindOptions.list(value, "keys")
            for item in items { _ = try FieldPath(parsing: item) }
            keys = items
        }
        if let value = params["excludeKeys"] {
            excludeKeys = try FindOptions.list(value, "excludeKeys")
            for item in excludeKeys { _ = try FieldPath(parsing: item) }
        }
        if let value = params["includeAll"], value == .bool(true) || value == .string("true") { includeAll = true }
        if let value = params["include"] {
            for item in try FindOptions.list(value, "include") {
                if item == "*" {
                    includeAll = true
                    continue
                }
                let path = try FieldPath(parsing: item)
                include.append([path.field.rawValue] + path.subkeys)
            }
            guard include.count <= limits.maxIncludes else { throw ParseError(.invalidQuery, "Too many include paths.") }
        }
    }

    static func integer(_ value: JSON) -> Int? {
        switch value {
        case .number: value.intValue
        case .string(let s): Int(s)
        default: nil
        }
    }

    /// A comma list or an array of strings; empty items are dropped.
    static func list(_ value: JSON, _ name: String) throws(ParseError) -> [String] {
        switch value {
        case .string(let s):
            return s.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        case .array(let items):
            var result: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw ParseError(.invalidQuery, "\(name) must be a list of field names") }
                result.append(contentsOf: s.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty })
            }
            return result
        default:
            throw ParseError(.invalidQuery, "\(name) must be a list of field names")
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
