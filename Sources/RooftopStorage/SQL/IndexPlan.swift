package import RooftopCore

/// The indexes a class's table should have, whatever the database: pointer-to-user indexes,
/// unique keys, and the indexes asked for through `/schemas`. Each expression is the one the
/// query compiler writes for that field, so the database can use the index.
package struct IndexPlan: Sendable, Equatable {
    /// The index's name (before the dialect quotes it).
    package var name: String
    /// Whether the index enforces uniqueness.
    package var unique: Bool
    /// The indexed expressions, in order.
    package var columns: [Column]

    /// One indexed expression and its direction.
    package struct Column: Sendable, Equatable {
        /// The SQL expression (a column or the compiler's expression for a field).
        package var expression: String
        /// Whether the index sorts it descending.
        package var descending: Bool
    }

    /// The column list as SQL, each expression parenthesized (PostgreSQL needs it for
    /// expressions; SQLite accepts it).
    package func columnList() -> String {
        columns.map { "(\($0.expression))" + ($0.descending ? " DESC" : "") }.joined(separator: ", ")
    }

    /// The indexes of `schema` stored in `table`.
    package static func indexes(_ schema: ClassSchema, table: String, dialect: any SQLDialect) -> [IndexPlan] {
        var plans: [IndexPlan] = []
        for field in schema.userPointerFields {
            plans.append(
                IndexPlan(
                    name: pointerIndexName(field, table: table), unique: false,
                    columns: [Column(expression: dialect.jsonText("data", [field, "objectId"]), descending: false)]))
        }
        for field in schema.uniqueFields {
            plans.append(
                IndexPlan(
                    name: uniqueIndexName(field, table: table), unique: true,
                    columns: [Column(expression: dialect.jsonText("data", [field]), descending: false)]))
        }
        for (indexName, keys) in schema.indexes.sorted(by: { $0.key < $1.key }) {
            guard FieldName.isIdentifier(indexName), !keys.isEmpty else { continue }
            var columns: [Column] = []
            for (field, direction) in keys.sorted(by: { $0.key < $1.key }) {
                guard FieldName.isIdentifier(field) else { continue }
                let expr: String
                switch (field, schema.fields[field]) {
                case ("objectId", _), ("createdAt", _), ("updatedAt", _): expr = field
                case (_, .pointer?): expr = dialect.jsonText("data", [field, "objectId"])
                case (_, .date?): expr = dialect.jsonText("data", [field, "iso"])
                case (_, .string?): expr = dialect.jsonText("data", [field])
                default: expr = dialect.jsonValue("data", [field])
                }
                columns.append(Column(expression: expr, descending: direction < 0))
            }
            guard !columns.isEmpty else { continue }
            plans.append(IndexPlan(name: requestedIndexName(indexName, table: table), unique: false, columns: columns))
        }
        return plans
    }

    /// The name of the index `/schemas` asked for as `indexName` on `table`.
    package static func requestedIndexName(_ indexName: String, table: String) -> String { "\(table)_idx_\(indexName)" }

    /// The name of the unique index of `field` on `table`: a violation names it, and
    /// `uniqueField(in:)` reads the field back for the duplicate-value error.
    package static func uniqueIndexName(_ field: String, table: String) -> String { "\(table)_unique_\(field)" }

    /// The field of the unique index a database's violation text names (`…<table>_unique_<field>`,
    /// possibly quoted), nil when it names no such index.
    package static func uniqueField(in text: some StringProtocol) -> String? {
        guard let marker = text.ranges(of: "_unique_").last else { return nil }
        return String(text[marker.upperBound...].prefix { $0 != "'" && $0 != "\"" })
    }

    /// The name of the pointer index of `field` on `table`.
    package static func pointerIndexName(_ field: String, table: String) -> String { "\(table)_\(field)_ptr" }
}
