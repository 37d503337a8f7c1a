/// A value bound to a SQL parameter. Values never appear in SQL text.
package enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A boolean compared with a JSON value (SQLite binds 1 or 0).
    case bool(Bool)
    /// Canonical JSON text of an array or object compared with a JSON value.
    case json(String)
}

/// SQL text with its bound values, built by appending.
package struct SQLFragment: Sendable {
    /// The SQL text, with one placeholder per binding.
    package var sql: String = ""
    /// Values for the placeholders, in order.
    package var bindings: [SQLValue] = []

    /// Creates an empty fragment.
    package init() {}

    /// Creates a fragment from literal SQL (no bindings).
    package init(_ sql: String) { self.sql = sql }
}
