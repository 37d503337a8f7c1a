import RooftopCore

/// How a JSON operand compares in SQL.
enum Operand {
    case null
    case value(SQLValue)
}

extension QueryCompiler {
    /// The physical name of the relation table of `field` in the class stored in `table`.
    package static func joinTable(field: String, ownerTable: String) -> String { "_Join:\(field):\(ownerTable)" }

    private static let columnFields: Set<String> = ["objectId", "createdAt", "updatedAt"]

    /// The SQL expression for `path`, the schema type that governs its operands, and whether it
    /// is a JSON value (operands bind with `bind(_:json:)`) rather than SQL text.
    private func expression(_ path: FieldPath, schema: ClassSchema, alias: String?) -> (String, FieldType?, json: Bool) {
        let name = path.field.rawValue
        let data = alias.map { "\($0).data" } ?? "data"
        if path.subkeys.isEmpty, QueryCompiler.columnFields.contains(name) {
            return (alias.map { "\($0).\(name)" } ?? name, name == "objectId" ? .string : .date, false)
        }
        guard path.subkeys.isEmpty, let type = schema.fields[name] else {
            return (dialect.jsonValue(data, [name] + path.subkeys), nil, true)
        }
        switch type {
        case .date: return (dialect.jsonText(data, [name, "iso"]), type, false)
        case .pointer: return (dialect.jsonText(data, [name, "objectId"]), type, false)
        case .string: return (dialect.jsonText(data, [name]), type, false)
        default: return (dialect.jsonValue(data, [name]), type, true)
        }
    }

    /// The ORDER BY expression for `path`.
    func sortExpression(_ path: FieldPath, schema: ClassSchema, alias: String?) -> String {
        expression(path, schema: schema, alias: alias).0
    }

    /// How `value` is bound when compared with a field of `type`; nil when it can never match.
    func operand(_ value: JSON, for type: FieldType?) -> Operand? {
        switch type {
        case .string?:
            // Only a string can equal a string; anything else never matches (as in Parse).
            if case .string(let s) = value { return .value(.text(s)) }
            return value.isNull ? .null : nil
        case .date?:
            if case .string(let s) = value, let date = ParseDate(iso: s) { return .value(.text(date.iso)) }
            guard value.parseType == "Date", let iso = value["iso"]?.stringValue, let date = ParseDate(iso: iso) else {
                return value.isNull ? .null : nil
            }
            return .value(.text(date.iso))
        case .pointer(let target)?:
            if value.isNull { return .null }
            guard let ref = try? ObjectRef(pointer: value), ref.className == target else { return nil }
            return .value(.text(ref.objectId))
        default:
            return QueryCompiler.genericOperand(value)
        }
    }

    /// Binding for a value compared with the raw JSON value at a path (or an array element).
    static func genericOperand(_ value: JSON) -> Operand {
        switch value {
        case .null: .null
        case .bool(let b): .value(.bool(b))
        case .number(let n): .value(.real(n))
        case .string(let s): .value(.text(s))
        case .array, .object: .value(.json(DocumentCoding.canonicalString(value)))
        }
    }

    mutating func compileField(_ path: FieldPath, _ condition: Condition, schema: ClassSchema, alias: String?) throws(ParseError) -> String {
        let (expr, type, json) = expression(path, schema: schema, alias: alias)
        if case .relation(let target)? = type, path.subkeys.isEmpty {
            return try relationCondition(path.field.rawValue, target: target, condition, schema: schema, alias: alias)
        }
        if type == .array, path.subkeys.isEmpty {
            return try arrayCondition(path.field.rawValue, condition, alias: alias)
        }
        switch condition {
        case .equals(let value):
            guard let op = operand(value, for: type) else { return "0 = 1" }
            guard case .value(let v) = op else { return "\(expr) IS NULL" }
            return "\(expr) = \(bind(v, json: json))"
        case .notEquals(let value):
            guard let op = operand(value, for: type) else { return "1 = 1" }
            guard case .value(let v) = op else { return "\(expr) IS NOT NULL" }
            return "(\(expr) IS NULL OR \(expr) <> \(bind(v, json: json)))"
        case .compare(let comparison, let value):
            guard let op = operand(value, for: type), case .value(let v) = op else { return "0 = 1" }
            return "\(expr) \(comparison.rawValue) \(bind(v, json: json))"
        case .isIn(let values):
            return inList(expr, values, type: type, json: json, negate: false)
        case .notIn(let values):
            return inList(expr, values, type: type, json: json, negate: true)
        case .exists(let flag):
            if path.subkeys.isEmpty, QueryCompiler.columnFields.contains(path.field.rawValue) { return flag ? "1 = 1" : "0 = 1" }
            let data = alias.map { "\($0).data" } ?? "data"
            return "\(dialect.jsonExists(data, [path.field.rawValue] + path.subkeys)) IS \(flag ? "NOT " : "")NULL"
        case .all, .containedBy:
            return "0 = 1"
        case .regex(let pattern, let options):
            return dialect.regexMatch(
                json ? dialect.jsonString(expr) : expr, pattern: bind(.text(dialect.regexPattern(pattern, options: options))),
                options: bind(.text(options)))
        case .inQuery(let sub), .notInQuery(let sub):
            guard case .pointer(let target)? = type, target == sub.className else {
                if case .notInQuery = condition { return "1 = 1" }
                return "0 = 1"
            }
            let inner = try subSelect(sub, column: { dialect, a in "\(a).objectId" })
            if case .inQuery = condition { return "\(expr) IN (\(inner))" }
            return "(\(expr) IS NULL OR \(expr) NOT IN (\(inner)))"
        case .select(let sub, let key), .dontSelect(let sub, let key):
            let keyPath = [key.field.rawValue] + key.subkeys
            // Named `v` in the select list: SQLite has no column aliases on a derived table
            // (`AS sel(v)`), which made every `$dontSelect` a syntax error there.
            let inner = try subSelect(
                sub,
                column: { dialect, a in
                    (json ? dialect.jsonValue("\(a).data", keyPath) : dialect.jsonText("\(a).data", keyPath)) + " AS v"
                })
            if case .select = condition { return "\(expr) IN (\(inner))" }
            // NOT IN over a list holding NULL is never true, so objects lacking the key are left out.
            return "(\(expr) IS NULL OR \(expr) NOT IN (SELECT v FROM (\(inner)) AS sel WHERE v IS NOT NULL))"
        }
    }

    private mutating func inList(_ expr: String, _ values: [JSON], type: FieldType?, json: Bool, negate: Bool) -> String {
        var placeholders: [String] = []
        var hasNull = false
        for value in values {
            switch operand(value, for: type) {
            case .value(let v)?: placeholders.append(bind(v, json: json))
            case .null?: hasNull = true
            case nil: continue
            }
        }
        var tests: [String] = []
        if !placeholders.isEmpty { tests.append("\(expr) IN (\(placeholders.joined(separator: ", ")))") }
        if hasNull { tests.append("\(expr) IS NULL") }
        let positive = tests.isEmpty ? "0 = 1" : "(" + tests.joined(separator: " OR ") + ")"
        guard negate else { return positive }
        if tests.isEmpty { return "1 = 1" }
        return hasNull ? "NOT \(positive)" : "(\(expr) IS NULL OR NOT \(positive))"
    }

    /// Conditions on an Array field: equality means "contains".
    private mutating func arrayCondition(_ field: String, _ condition: Condition, alias: String?) throws(ParseError) -> String {
        let data = alias.map { "\($0).data" } ?? "data"
        let elements = dialect.jsonArrayElements(data, [field])
        let whole = dialect.jsonValue(data, [field])
        func contains(_ compiler: inout QueryCompiler, _ values: [JSON]) -> String {
            let binds = values.map { value -> String in
                guard case .value(let v) = QueryCompiler.genericOperand(value) else { return "NULL" }
                return compiler.bind(v, json: true)
            }
            return "EXISTS (SELECT 1 FROM \(elements) WHERE value IN (\(binds.joined(separator: ", "))))"
        }
        switch condition {
        case .equals(let value):
            if value.isNull { return "\(whole) IS NULL" }
            if case .array = value, case .value(let v) = QueryCompiler.genericOperand(value) { return "\(whole) = \(bind(v, json: true))" }
            return contains(&self, [value])
        case .notEquals(let value):
            if value.isNull { return "\(whole) IS NOT NULL" }
            return "NOT " + contains(&self, [value])
        case .isIn(let values):
            return values.isEmpty ? "0 = 1" : contains(&self, values)
        case .notIn(let values):
            return values.isEmpty ? "1 = 1" : "NOT " + contains(&self, values)
        case .all(let values):
            if values.isEmpty { return "0 = 1" }
            return "(" + values.map { contains(&self, [$0]) }.joined(separator: " AND ") + ")"
        case .containedBy(let values):
            let binds = values.compactMap { value -> String? in
                guard case .value(let v) = QueryCompiler.genericOperand(value) else { return nil }
                return bind(v, json: true)
            }
            let list = binds.isEmpty ? "NULL" : binds.joined(separator: ", ")
            return "NOT EXISTS (SELECT 1 FROM \(elements) WHERE value NOT IN (\(list)))"
        case .exists(let flag):
            return "\(dialect.jsonExists(data, [field])) IS \(flag ? "NOT " : "")NULL"
        case .compare, .regex, .select, .dontSelect:
            return "0 = 1"
        case .inQuery(let sub), .notInQuery(let sub):
            let inner = try subSelect(sub, column: { _, a in "\(a).objectId" })
            let test = "EXISTS (SELECT 1 FROM \(elements) WHERE \(dialect.elementValue(["objectId"])) IN (\(inner)))"
            if case .inQuery = condition { return test }
            return "NOT " + test
        }
    }

    /// Conditions on a Relation field: equality means "the relation contains".
    private mutating func relationCondition(
        _ field: String, target: ClassName, _ condition: Condition, schema: ClassSchema, alias: String?
    ) throws(ParseError) -> String {
        guard let table = catalog.tables[schema.className] else { return "0 = 1" }
        let join = dialect.quote(QueryCompiler.joinTable(field: field, ownerTable: table))
        let objectId = alias.map { "\($0).objectId" } ?? "objectId"
        var ids: [String] = []
        switch condition {
        case .equals(let value):
            guard let ref = try? ObjectRef(pointer: value), ref.className == target else { return "0 = 1" }
            ids = [bind(.text(ref.objectId))]
        case .isIn(let values):
            for value in values {
                if let ref = try? ObjectRef(pointer: value), ref.className == target { ids.append(bind(.text(ref.objectId))) }
            }
            if ids.isEmpty { return "0 = 1" }
        case .inQuery(let sub) where sub.className == target:
            let inner = try subSelect(sub, column: { _, a in "\(a).objectId" })
            return "\(objectId) IN (SELECT owningId FROM \(join) WHERE relatedId IN (\(inner)))"
        default:
            throw ParseError(.invalidQuery, "This constraint is not supported on a relation field.")
        }
        return "\(objectId) IN (SELECT owningId FROM \(join) WHERE relatedId IN (\(ids.joined(separator: ", "))))"
    }

    /// `$relatedTo`: objects in `owner`'s relation `key`, if the caller may read `owner`.
    mutating func relatedTo(owner: ObjectRef, key: FieldName, schema: ClassSchema, alias: String?) throws(ParseError) -> String {
        guard let ownerSchema = catalog.schemas[owner.className], let ownerTable = catalog.tables[owner.className],
            case .relation(let target)? = ownerSchema.fields[key.rawValue], target == schema.className,
            let ownerAccess = scope.access(for: owner.className)
        else { return "0 = 1" }
        let join = dialect.quote(QueryCompiler.joinTable(field: key.rawValue, ownerTable: ownerTable))
        let objectId = alias.map { "\($0).objectId" } ?? "objectId"
        let ownerAlias = nextAlias()
        let ownerId = bind(.text(owner.objectId))
        let readable = try whereClause(.always, schema: ownerSchema, access: ownerAccess, alias: ownerAlias)
        let ownerCheck =
            "EXISTS (SELECT 1 FROM \(dialect.quote(ownerTable)) AS \(ownerAlias) WHERE \(ownerAlias).objectId = \(ownerId) AND \(readable))"
        let ownerId2 = bind(.text(owner.objectId))
        return "(\(ownerCheck) AND \(objectId) IN (SELECT relatedId FROM \(join) WHERE owningId = \(ownerId2)))"
    }

    private mutating func nextAlias() -> String {
        aliasCounter += 1
        return "s\(aliasCounter)"
    }

    /// `SELECT <column> FROM <sub class> WHERE <caller's access> AND <sub query>`.
    private mutating func subSelect(
        _ sub: SubQuery, column: (any SQLDialect, String) -> String
    ) throws(ParseError) -> String {
        guard let table = catalog.tables[sub.className], let access = scope.access(for: sub.className) else {
            return "SELECT NULL WHERE 0 = 1"
        }
        let schema = catalog.schemas[sub.className] ?? ClassSchema(className: sub.className)
        let alias = nextAlias()
        let condition = try whereClause(sub.query, schema: schema, access: access, alias: alias)
        return "SELECT \(column(dialect, alias)) FROM \(dialect.quote(table)) AS \(alias) WHERE \(condition)"
    }
}
