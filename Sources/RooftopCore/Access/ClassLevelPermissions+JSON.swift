extension ClassLevelPermissions {
    /// Parses the `/schemas` form; unknown operations or malformed entries are 107.
    public init(json: JSON) throws(ParseError) {
        guard case .object(let members) = json else { throw ParseError(.invalidJSON, "classLevelPermissions must be an object") }
        self.init()
        for (key, value) in members {
            if let operation = Operation(rawValue: key) {
                rules[operation] = try Self.parseRule(value, operation: key)
                continue
            }
            switch key {
            case "readUserFields": readUserFields = try Self.parseFieldList(value, key)
            case "writeUserFields": writeUserFields = try Self.parseFieldList(value, key)
            case "protectedFields": protectedFields = try Self.parseProtected(value)
            default: throw ParseError(.invalidJSON, "\(ClassName.printable(key)) is not a valid operation for class level permissions")
            }
        }
    }

    private static func parseRule(_ value: JSON, operation: String) throws(ParseError) -> Rule {
        guard case .object(let entries) = value else {
            throw ParseError(.invalidJSON, "'\(operation)' permission must be an object")
        }
        var rule = Rule()
        for (entry, flag) in entries {
            switch entry {
            case "requiresAuthentication":
                guard case .bool(let on) = flag else { throw ParseError(.invalidJSON, "requiresAuthentication must be true") }
                rule.requiresAuthentication = on
            case "pointerFields":
                rule.pointerFields = try parseFieldList(flag, entry)
            default:
                guard ACL.isValidEntry(entry) else {
                    throw ParseError(.invalidJSON, "\(ClassName.printable(entry)) is not a valid entry for class level permissions")
                }
                guard case .bool(let allowed) = flag else { throw ParseError(.invalidJSON, "permission values must be true") }
                if allowed { rule.entries.insert(entry) }
            }
        }
        return rule
    }

    private static func parseFieldList(_ value: JSON, _ key: String) throws(ParseError) -> [FieldName] {
        guard case .array(let items) = value else { throw ParseError(.invalidJSON, "'\(key)' must be an array") }
        var fields: [FieldName] = []
        for item in items {
            guard let name = item.stringValue else { throw ParseError(.invalidJSON, "'\(key)' must hold field names") }
            fields.append(try FieldName(name))
        }
        return fields
    }

    private static func parseProtected(_ value: JSON) throws(ParseError) -> [String: [String]] {
        guard case .object(let audiences) = value else { throw ParseError(.invalidJSON, "protectedFields must be an object") }
        var result: [String: [String]] = [:]
        for (audience, list) in audiences {
            let valid =
                audience == "authenticated" || ACL.isValidEntry(audience)
                || (audience.hasPrefix("userField:") && FieldName.isIdentifier(String(audience.dropFirst(10))))
            guard valid, case .array(let items) = list else { throw ParseError(.invalidJSON, "invalid protectedFields entry") }
            var names: [String] = []
            for item in items {
                guard let name = item.stringValue, FieldName.isIdentifier(name) else {
                    throw ParseError(.invalidJSON, "protectedFields must hold field names")
                }
                names.append(name)
            }
            result[audience] = names
        }
        return result
    }

    /// The `/schemas` form, with every operation spelled out.
    public var json: JSON {
        var members: [String: JSON] = [:]
        for operation in Operation.allCases {
            let rule = rule(operation)
            var entries: [String: JSON] = [:]
            for entry in rule.entries { entries[entry] = true }
            if rule.requiresAuthentication { entries["requiresAuthentication"] = true }
            if !rule.pointerFields.isEmpty { entries["pointerFields"] = .array(rule.pointerFields.map { .string($0.rawValue) }) }
            members[operation.rawValue] = .object(entries)
        }
        if !readUserFields.isEmpty { members["readUserFields"] = .array(readUserFields.map { .string($0.rawValue) }) }
        if !writeUserFields.isEmpty { members["writeUserFields"] = .array(writeUserFields.map { .string($0.rawValue) }) }
        // Parse shows `"*": []` for a class without protected fields; it is not added to
        // configured audiences, where it would empty the intersection and hide nothing.
        var protected: [String: JSON] = protectedFields.isEmpty ? ["*": []] : [:]
        for (audience, fields) in protectedFields { protected[audience] = .array(fields.map { .string($0) }) }
        members["protectedFields"] = .object(protected)
        return .object(members)
    }
}
