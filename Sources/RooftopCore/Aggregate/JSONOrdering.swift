/// A total order over JSON values, as the aggregate stages and in-memory matching need it.
///
/// Types order as MongoDB's do (null < numbers < strings < objects < arrays < booleans);
/// dates (`{"__type":"Date"}`) compare by their ISO text, which sorts chronologically.
public enum JSONOrdering {
    /// -1, 0 or 1.
    public static func compare(_ a: JSON, _ b: JSON) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (comparable(a), comparable(b)) {
        case (.number(let x), .number(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.string(let x), .string(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.array(let x), .array(let y)):
            for (u, v) in zip(x, y) {
                let c = compare(u, v)
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case (let x, let y):
            let (sx, sy) = (JSONWriter.string(x, sortedKeys: true), JSONWriter.string(y, sortedKeys: true))
            return sx < sy ? -1 : sx > sy ? 1 : 0
        }
    }

    /// Dates become their ISO string so they compare with each other.
    static func comparable(_ value: JSON) -> JSON {
        if value.parseType == "Date", let iso = value["iso"] { return iso }
        return value
    }

    static func rank(_ value: JSON) -> Int {
        switch comparable(value) {
        case .null: 0
        case .number: 1
        case .string: 2
        case .object: 3
        case .array: 4
        case .bool: 5
        }
    }
}
