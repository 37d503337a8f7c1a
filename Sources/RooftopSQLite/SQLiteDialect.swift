import Foundation
import RooftopCore
package import RooftopStorage

/// SQLite's SQL: JSON1 functions, `?` placeholders, permission lists as JSON arrays.
package struct SQLiteDialect: SQLDialect {
    /// Creates the dialect.
    package init() {}

    /// SQLite's form; see `SQLDialect`.
    package func placeholder(_ index: Int) -> String { "?" }

    /// SQLite's form; see `SQLDialect`.
    package func quote(_ identifier: String) -> String {
        // Identifiers are validated names, so the escaping loop almost never runs; Foundation's
        // replacingOccurrences was a visible share of each request.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        var quoted = "\""
        for character in identifier { quoted += character == "\"" ? "\"\"" : String(character) }
        return quoted + "\""
    }

    /// `'$.a.b'`; segments are validated identifiers, so they need no escaping.
    private func jsonPath(_ path: [String]) -> String { "'$." + path.joined(separator: ".") + "'" }

    /// SQLite's form; see `SQLDialect`.
    package func jsonValue(_ column: String, _ path: [String]) -> String { "json_extract(\(column), \(jsonPath(path)))" }

    /// `json_extract` already gives strings as text.
    package func jsonText(_ column: String, _ path: [String]) -> String { jsonValue(column, path) }

    /// SQLite compares JSON scalars as SQL values: the value binds as it is.
    package func jsonOperand(_ value: SQLValue, placeholder: String) -> (sql: String, binding: SQLValue) { (placeholder, value) }

    /// Only strings match a regular expression; `rt_regex` refuses anything else itself.
    package func jsonString(_ expression: String) -> String { expression }

    /// SQLite sorts NULL first in ascending order already.
    package func order(descending: Bool) -> String { descending ? " DESC" : " ASC" }

    /// Stored as JSON text.
    package func selectDocument(_ expression: String) -> String { expression }

    /// Stored as JSON text.
    package func selectPermissions(_ column: String) -> String { column }

    /// SQLite's form; see `SQLDialect`.
    package func jsonExists(_ column: String, _ path: [String]) -> String { "json_type(\(column), \(jsonPath(path)))" }

    /// SQLite's form; see `SQLDialect`.
    package func jsonArrayElements(_ column: String, _ path: [String]) -> String { "json_each(\(column), \(jsonPath(path)))" }

    /// Scalar elements are not JSON text, so only objects are looked into (anything else is NULL
    /// rather than a "malformed JSON" error).
    package func elementValue(_ path: [String]) -> String {
        "json_extract(CASE WHEN type = 'object' THEN value END, \(jsonPath(path)))"
    }

    /// SQLite's form; see `SQLDialect`.
    package func permissionCheck(_ column: String, _ placeholders: [String]) -> String {
        "(\(column) IS NULL OR EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value IN (\(placeholders.joined(separator: ", ")))))"
    }

    /// SQLite's form; see `SQLDialect`.
    package func removeKeys(_ document: String, _ keys: [String]) -> String {
        "json_remove(\(document), " + keys.map { "'$.\($0)'" }.joined(separator: ", ") + ")"
    }

    /// `rt_regex` runs Parse's syntax itself.
    package func regexPattern(_ pattern: String, options: String) -> String { pattern }

    /// SQLite's form; see `SQLDialect`.
    package func regexMatch(_ value: String, pattern: String, options: String) -> String {
        "rt_regex(\(value), \(pattern), \(options))"
    }
}
