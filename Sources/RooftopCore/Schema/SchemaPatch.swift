/// A `/schemas` request body, validated: fields and indexes to add or delete, and new CLPs.
///
/// Pure: `apply(to:)` computes the next schema, and the store writes it in one transaction
/// (dropping the data of deleted fields), so concurrent object writes can't interleave.
public struct SchemaPatch: Sendable, Equatable {
    /// Fields to add.
    public var addFields: [String: FieldType] = [:]
    /// `required` and `defaultValue` of fields being added.
    public var addFieldOptions: [String: FieldOptions] = [:]
    /// Fields to delete (`{"__op":"Delete"}`).
    public var deleteFields: Set<String> = []
    /// New class-level permissions, if given.
    public var clp: ClassLevelPermissions?
    /// Indexes to add: name → field → 1 / -1.
    public var addIndexes: [String: [String: Int]] = [:]
    /// Indexes to delete.
    public var deleteIndexes: Set<String> = []

    /// The most indexes a class may have besides the built-in ones.
    public static let maxIndexes = 32

    /// Parses `{"className","fields","classLevelPermissions","indexes"}`; unknown keys are 107.
    public init(body: [String: JSON], className: ClassName) throws(ParseError) {
        for key in body.keys where !["className", "fields", "classLevelPermissions", "indexes"].contains(key) {
            throw ParseError(.invalidJSON, "\(ClassName.printable(key)) is not a valid schema key.")
        }
        if let named = body["className"], named.stringValue != className.rawValue {
            throw ParseError(.invalidQuery, "Class name mismatch between \(ClassName.printable(named.stringValue ?? "")) and \(className).")
        }
        if let fields = body["fields"] {
            guard case .object(let members) = fields else { throw ParseError(.invalidJSON, "fields must be an object.") }
            for (name, spec) in members {
                guard FieldName.isIdentifier(name) else { throw ParseError(.invalidKeyName, "invalid field name: \(ClassName.printable(name))") }
                if spec["__op"]?.stringValue == "Delete" {
                    deleteFields.insert(name)
                    continue
                }
                let members = spec.objectValue ?? [:]
                for key in members.keys where !["type", "targetClass", "required", "defaultValue"].contains(key) {
                    throw ParseError(.invalidJSON, "Field option \(ClassName.printable(key)) is not supported.")
                }
                let type = try FieldType(json: spec)
                addFields[name] = type
                let options = try FieldOptions(spec: members, type: type, field: name, className: className)
                if !options.isEmpty { addFieldOptions[name] = options }
            }
        }
        if let clpJSON = body["classLevelPermissions"], clpJSON != .null { clp = try ClassLevelPermissions(json: clpJSON) }
        if let indexes = body["indexes"] {
            guard case .object(let members) = indexes else { throw ParseError(.invalidJSON, "indexes must be an object.") }
            for (name, spec) in members {
                guard FieldName.isIdentifier(name) else { throw ParseError(.invalidQuery, "invalid index name: \(ClassName.printable(name))") }
                if spec["__op"]?.stringValue == "Delete" {
                    deleteIndexes.insert(name)
                    continue
                }
                guard case .object(let keys) = spec, !keys.isEmpty else { throw ParseError(.invalidQuery, "Index \(name) must name fields.") }
                var index: [String: Int] = [:]
                for (field, direction) in keys {
                    guard FieldName.isIdentifier(field) else {
                        throw ParseError(.invalidKeyName, "invalid field name: \(ClassName.printable(field))")
                    }
                    guard let number = direction.numberValue, number == 1 || number == -1 else {
                        throw ParseError(.invalidQuery, "Index \(name) directions must be 1 or -1.")
                    }
                    index[field] = Int(number)
                }
                addIndexes[name] = index
            }
        }
    }

    /// The schema after this patch: `current` is nil when creating a class.
    public func apply(to current: ClassSchema?, className: ClassName) throws(ParseError) -> ClassSchema {
        var schema = current ?? ClassSchema(className: className)
        for name in deleteFields.sorted() {
            guard schema.fields[name] != nil, current != nil else {
                throw ParseError(.invalidSchemaOperation, "Field \(name) does not exist, cannot delete.")
            }
            guard !schema.isDefaultField(name) else { throw ParseError(.operationForbidden, "field \(name) cannot be changed") }
            schema.fields[name] = nil
            schema.fieldOptions[name] = nil
            schema.indexes = schema.indexes.filter { $0.value[name] == nil }
        }
        for (name, type) in addFields.sorted(by: { $0.key < $1.key }) {
            if schema.isDefaultField(name) { throw ParseError(.invalidKeyName, "field \(name) cannot be added") }
            if schema.fields[name] != nil {
                throw ParseError(.invalidSchemaOperation, "Field \(name) exists, cannot update.")
            }
            if type == .acl { throw ParseError(.incorrectType, "invalid field type: ACL") }
            _ = try schema.merge([name: type])
            schema.fieldOptions[name] = addFieldOptions[name]
        }
        for name in deleteIndexes.sorted() {
            guard schema.indexes[name] != nil else { throw ParseError(.invalidQuery, "Index \(name) does not exist, cannot delete.") }
            schema.indexes[name] = nil
        }
        for (name, keys) in addIndexes.sorted(by: { $0.key < $1.key }) {
            guard schema.indexes[name] == nil, name != "_id_" else { throw ParseError(.invalidQuery, "Index \(name) exists, cannot update.") }
            for field in keys.keys where schema.fields[field] == nil {
                throw ParseError(.invalidQuery, "Field \(field) does not exist, cannot add index.")
            }
            schema.indexes[name] = keys
        }
        guard schema.indexes.count <= Self.maxIndexes else { throw ParseError(.invalidQuery, "Too many indexes on \(className).") }
        if let clp {
            try clp.validate(against: schema)
            schema.clp = clp
        }
        return schema
    }
}

extension ClassLevelPermissions {
    /// Checks field references: pointer permissions name `Pointer<_User>` or `Array` fields, and
    /// protected fields name existing fields other than the id, timestamps and ACL (107 otherwise, as Parse).
    public func validate(against schema: ClassSchema) throws(ParseError) {
        var pointerNames = readUserFields + writeUserFields
        for rule in rules.values { pointerNames += rule.pointerFields }
        for field in pointerNames {
            switch schema.fields[field.rawValue] {
            case .pointer(.user)?, .array?: continue
            default:
                throw ParseError(
                    .invalidJSON, "'\(field)' is not a valid column for class level pointer permissions on \(schema.className)")
            }
        }
        for (audience, fields) in protectedFields {
            if audience.hasPrefix("userField:") {
                let pointer = String(audience.dropFirst("userField:".count))
                guard case .pointer(.user)? = schema.fields[pointer] else {
                    throw ParseError(.invalidJSON, "'\(pointer)' is not a valid column for protectedFields on \(schema.className)")
                }
            }
            for field in fields where schema.fields[field] == nil || ["objectId", "createdAt", "updatedAt", "ACL"].contains(field) {
                throw ParseError(.invalidJSON, "Field '\(field)' in protectedFields:\(audience) does not exist on \(schema.className)")
            }
        }
    }
}
