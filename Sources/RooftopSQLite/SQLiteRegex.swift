import GRDB
import RooftopCore
import RooftopStorage

/// `rt_regex(value, pattern, options)`: `$regex` on SQLite through the linear-time matcher.
enum SQLiteRegex {
    /// Compiled patterns, so a query does not recompile per row; bounded in size.
    private static let cache = LockedValue<[String: BoundedRegex]>([:])

    static let function = DatabaseFunction("rt_regex", argumentCount: 3, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return false }
        let options = String.fromDatabaseValue(values[2]) ?? ""
        return try regex(pattern, options).matches(text)
    }

    static func regex(_ pattern: String, _ options: String) throws -> BoundedRegex {
        let key = options + "/" + pattern
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let compiled = try BoundedRegex(pattern, options: options)
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[key] = compiled
        }
        return compiled
    }
}
