package import RooftopCore

/// Compiles a `FindRequest` into one SQL statement with bound values.
///
/// ACL read permission, pointer permissions and protected fields are part of the statement, so
/// `limit`, `skip` and `count` count only rows the caller may see, and subqueries (`$inQuery`,
/// `$select`, `$relatedTo`) see only what the caller may read in their classes.
package struct QueryCompiler {
    /// Schemas and table names the compiler may consult.
    package struct Catalog: Sendable {
        /// Schemas by class.
        package var schemas: [ClassName: ClassSchema]
        /// Table name by class (classes without a table have no objects).
        package var tables: [ClassName: String]

        /// Creates a catalog.
        package init(schemas: [ClassName: ClassSchema], tables: [ClassName: String]) {
            self.schemas = schemas
            self.tables = tables
        }
    }

    /// Columns every table has and never holds NULL in.
    static let notNullColumns: Set<String> = ["objectId", "createdAt", "updatedAt"]

    let dialect: any SQLDialect
    let catalog: Catalog
    let scope: AccessScope
    var out = SQLFragment()
    var aliasCounter = 0

    /// Creates a compiler for one statement.
    package init(dialect: any SQLDialect, catalog: Catalog, scope: AccessScope) {
        self.dialect = dialect
        self.catalog = catalog
        self.scope = scope
    }

    /// The columns every select returns, in order: objectId, createdAt, updatedAt, _rperm, _wperm, data.
    package static let selectedColumns = 6

    /// `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …` for a find, or COUNT(*) when `count`.
    package static func compile(
        _ request: FindRequest, dialect: any SQLDialect, catalog: Catalog, count: Bool = false
    ) throws(ParseError) -> SQLFragment {
        try ExactText.check(request.query)
        var compiler = QueryCompiler(dialect: dialect, catalog: catalog, scope: request.scope)
        return try compiler.select(request, count: count)
    }

    mutating func bind(_ value: SQLValue) -> String {
        out.bindings.append(value)
        return dialect.placeholder(out.bindings.count)
    }

    /// Binds a value compared with a JSON value (`json`) or with SQL text.
    mutating func bind(_ value: SQLValue, json: Bool) -> String {
        guard json else { return bind(value) }
        let (sql, binding) = dialect.jsonOperand(value, placeholder: dialect.placeholder(out.bindings.count + 1))
        out.bindings.append(binding)
        return sql
    }

    private mutating func select(_ request: FindRequest, count: Bool) throws(ParseError) -> SQLFragment {
        guard let access = scope.access(for: request.className) else { throw ParseError.objectNotFound }
        guard let table = catalog.tables[request.className] else {
            out.sql = count ? "SELECT 0" : "SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0 = 1"
            return out
        }
        let schema = catalog.schemas[request.className] ?? ClassSchema(className: request.className)
        if count {
            out.sql = "SELECT COUNT(*) FROM \(dialect.quote(table))"
        } else {
            let document = projection(schema: schema, access: access, alias: nil)
            let permissions = dialect.selectPermissions("_rperm") + ", " + dialect.selectPermissions("_wperm")
            out.sql = "SELECT objectId, createdAt, updatedAt, \(permissions), \(dialect.selectDocument(document)) FROM \(dialect.quote(table))"
        }
        let condition = try whereClause(request.query, schema: schema, access: access, alias: nil)
        out.sql += " WHERE " + condition
        if !count {
            if !request.options.order.isEmpty {
                let keys = request.options.order.map { key in
                    // The built-in columns are never NULL: a plain direction lets PostgreSQL read
                    // them in an index's order (an index sorts NULLs last, Parse sorts them first).
                    let builtIn = key.path.subkeys.isEmpty && QueryCompiler.notNullColumns.contains(key.path.field.rawValue)
                    return sortExpression(key.path, schema: schema, alias: nil)
                        + (builtIn ? (key.descending ? " DESC" : " ASC") : dialect.order(descending: key.descending))
                }
                out.sql += " ORDER BY " + keys.joined(separator: ", ")
            }
            out.sql += " LIMIT \(bind(.integer(Int64(request.options.limit))))"
            if request.options.skip > 0 { out.sql += " OFFSET \(bind(.integer(Int64(request.options.skip))))" }
        }
        return out
    }

    /// The document column with protected fields removed, as this caller should see it.
    private mutating func projection(schema: ClassSchema, access: Access, alias: String?) -> String {
        let data = column("data", alias)
        if access.hiddenFields.isEmpty { return data }
        var hiddenDoc = dialect.removeKeys(data, access.hiddenFields.sorted())
        for (userField, remaining) in access.hiddenUnlessUserField.sorted(by: { $0.key < $1.key }) {
            guard let userId = access.userId, let field = try? FieldName(userField) else { continue }
            let test = referencesUser(FieldPath(field: field), schema: schema, userId: userId, alias: alias)
            let exempt = remaining.isEmpty ? data : dialect.removeKeys(data, remaining.sorted())
            hiddenDoc = "CASE WHEN \(test) THEN \(exempt) ELSE \(hiddenDoc) END"
        }
        if schema.className == .user, let userId = access.userId {
            // A user always sees its own record's protected fields (Parse's owner exemption).
            hiddenDoc = "CASE WHEN \(column("objectId", alias)) = \(bind(.text(userId))) THEN \(data) ELSE \(hiddenDoc) END"
        }
        return hiddenDoc
    }

    func column(_ name: String, _ alias: String?) -> String {
        alias.map { "\($0).\(name)" } ?? name
    }

    /// The full WHERE condition: ACL, pointer permissions and the query.
    mutating func whereClause(_ node: QueryNode, schema: ClassSchema, access: Access, alias: String?) throws(ParseError) -> String {
        var parts: [String] = []
        if let group = access.aclGroup {
            let placeholders = group.map { bind(.text($0)) }
            parts.append(dialect.permissionCheck(column("_rperm", alias), placeholders))
        }
        if !access.pointerRestriction.isEmpty {
            // Without a user nothing qualifies; the rest is still compiled so every bound
            // value keeps its placeholder.
            if let userId = access.userId {
                let tests = access.pointerRestriction.map { field in
                    referencesUser(FieldPath(field: field), schema: schema, userId: userId, alias: alias)
                }
                parts.append("(" + tests.joined(separator: " OR ") + ")")
            } else {
                parts.append("0 = 1")
            }
        }
        parts.append(try compile(node, schema: schema, alias: alias))
        return parts.joined(separator: " AND ")
    }

    /// Whether the pointer (or array of pointers) at `path` references `userId`.
    mutating func referencesUser(_ path: FieldPath, schema: ClassSchema, userId: String, alias: String?) -> String {
        let data = column("data", alias)
        let id = bind(.text(userId))
        if schema.fields[path.field.rawValue] == .array {
            let elements = dialect.jsonArrayElements(data, [path.field.rawValue])
            return "EXISTS (SELECT 1 FROM \(elements) WHERE \(dialect.elementValue(["objectId"])) = \(id))"
        }
        return "\(dialect.jsonText(data, [path.field.rawValue, "objectId"])) = \(id)"
    }

    private mutating func compile(_ node: QueryNode, schema: ClassSchema, alias: String?) throws(ParseError) -> String {
        switch node {
        case .and(let children):
            if children.isEmpty { return "1 = 1" }
            var parts: [String] = []
            for child in children { parts.append(try compile(child, schema: schema, alias: alias)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let children):
            var parts: [String] = []
            for child in children { parts.append(try compile(child, schema: schema, alias: alias)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .nor(let children):
            var parts: [String] = []
            for child in children { parts.append(try compile(child, schema: schema, alias: alias)) }
            return "NOT (" + parts.joined(separator: " OR ") + ")"
        case .never:
            return "0 = 1"
        case .relatedTo(let owner, let key):
            return try relatedTo(owner: owner, key: key, schema: schema, alias: alias)
        case .field(let path, let condition):
            return try compileField(path, condition, schema: schema, alias: alias)
        }
    }
}

extension QueryCompiler {
    /// The access condition alone (ACL on `permissionColumn` plus pointer permissions), for
    /// writes: `UPDATE … WHERE objectId = ? AND <this>`.
    ///
    /// - Parameter bindingOffset: how many bindings precede this fragment in the statement.
    package static func accessCondition(
        _ access: Access, schema: ClassSchema, permissionColumn: String, dialect: any SQLDialect, catalog: Catalog,
        bindingOffset: Int
    ) -> SQLFragment {
        var compiler = QueryCompiler(dialect: dialect, catalog: catalog, scope: AccessScope(classes: [:]))
        compiler.out.bindings = Array(repeating: .null, count: bindingOffset)
        var parts: [String] = []
        if let group = access.aclGroup {
            let placeholders = group.map { compiler.bind(.text($0)) }
            parts.append(dialect.permissionCheck(permissionColumn, placeholders))
        }
        if !access.pointerRestriction.isEmpty {
            if let userId = access.userId {
                let tests = access.pointerRestriction.map { field in
                    compiler.referencesUser(FieldPath(field: field), schema: schema, userId: userId, alias: nil)
                }
                parts.append("(" + tests.joined(separator: " OR ") + ")")
            } else {
                parts.append("0 = 1")
            }
        }
        for (field, value) in access.requiredValues.sorted(by: { $0.key < $1.key }) {
            parts.append("\(dialect.jsonText("data", [field.rawValue])) = \(compiler.bind(.text(value)))")
        }
        for field in access.requiredAbsent.sorted(by: { $0.rawValue < $1.rawValue }) {
            parts.append("\(dialect.jsonText("data", [field.rawValue])) IS NULL")
        }
        var fragment = SQLFragment(parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND "))
        fragment.bindings = Array(compiler.out.bindings.dropFirst(bindingOffset))
        return fragment
    }
}
