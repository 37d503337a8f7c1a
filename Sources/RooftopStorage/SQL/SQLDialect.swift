import RooftopCore

/// What differs between SQL databases, for the compiler.
///
/// Every method receives identifiers and JSON path segments that were validated as
/// `ClassName`/`FieldName` identifiers; values always go through `placeholder(_:)`.
package protocol SQLDialect: Sendable {
    /// The placeholder for the `index`-th binding (1-based).
    func placeholder(_ index: Int) -> String
    /// A quoted identifier.
    func quote(_ identifier: String) -> String
    /// The SQL value at `path` inside the JSON document column `column`: text for strings,
    /// numbers for numbers, 1/0 for booleans, NULL when missing, JSON text for objects and arrays.
    func jsonValue(_ column: String, _ path: [String]) -> String
    /// The string at `path` as SQL text: for fields known to hold strings (string fields,
    /// pointer ids, date `iso`s), so they compare with text bindings and text indexes.
    func jsonText(_ column: String, _ path: [String]) -> String
    /// The SQL for a value compared with a `jsonValue` or an array element, and the binding to
    /// send for it (a database whose JSON values are typed needs the value as JSON).
    func jsonOperand(_ value: SQLValue, placeholder: String) -> (sql: String, binding: SQLValue)
    /// The text of a `jsonValue` that is a JSON string, NULL otherwise (for regular expressions).
    func jsonString(_ expression: String) -> String
    /// ` ASC` or ` DESC`, with missing values first in ascending order (as in Parse).
    func order(descending: Bool) -> String
    /// The document column (or an expression of it) as JSON text, in a select list.
    func selectDocument(_ expression: String) -> String
    /// A permission list column as a JSON array text (or NULL), in a select list.
    func selectPermissions(_ column: String) -> String
    /// Non-NULL iff `path` exists in the document (even when its value is JSON null).
    func jsonExists(_ column: String, _ path: [String]) -> String
    /// A table source with one row per array element at `path`, exposing `value` like `jsonValue`.
    func jsonArrayElements(_ column: String, _ path: [String]) -> String
    /// The SQL value at `path` inside an element produced by `jsonArrayElements`.
    func elementValue(_ path: [String]) -> String
    /// A boolean: the permission list `column` (NULL = public) intersects the listed placeholders.
    func permissionCheck(_ column: String, _ placeholders: [String]) -> String
    /// `document` with the top-level `keys` removed.
    func removeKeys(_ document: String, _ keys: [String]) -> String
    /// The pattern to bind for a Parse (PCRE-style) regular expression with `options`.
    func regexPattern(_ pattern: String, options: String) -> String
    /// A boolean: `value` matches the regular expression.
    func regexMatch(_ value: String, pattern: String, options: String) -> String
}
