package import RooftopCore

/// How a `ClassSchema` is stored: one JSON text per class.
package enum SchemaCoding {
    /// The stored text of `schema` (default fields are implied, not stored).
    package static func encode(_ schema: ClassSchema) -> String {
        var fields: [String: JSON] = [:]
        for (name, type) in schema.fields where !schema.isDefaultField(name) { fields[name] = schema.fieldJSON(name, type) }
        var indexes: [String: JSON] = [:]
        for (name, keys) in schema.indexes { indexes[name] = .object(keys.mapValues { .number(Double($0)) }) }
        return DocumentCoding.canonicalString([
            "fields": .object(fields), "classLevelPermissions": schema.clp.json, "indexes": .object(indexes),
        ])
    }

    /// Reads a stored schema.
    package static func decode(className: String, json text: String) throws -> ClassSchema {
        let json = try JSONParser.parse(text, maxDepth: 16)
        var fields: [String: FieldType] = [:]
        var options: [String: FieldOptions] = [:]
        for (name, type) in json["fields"]?.objectValue ?? [:] {
            fields[name] = try FieldType(json: type)
            let stored = FieldOptions(stored: type)
            if !stored.isEmpty { options[name] = stored }
        }
        let clp = try json["classLevelPermissions"].map { value throws(ParseError) in try ClassLevelPermissions(json: value) } ?? .open
        var indexes: [String: [String: Int]] = [:]
        for (name, keys) in json["indexes"]?.objectValue ?? [:] {
            indexes[name] = (keys.objectValue ?? [:]).compactMapValues(\.intValue)
        }
        var schema = ClassSchema(className: try ClassName(className), fields: fields, clp: clp, indexes: indexes)
        schema.fieldOptions = options
        return schema
    }
}
