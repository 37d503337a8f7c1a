/// A field's `required` and `defaultValue`, as `/schemas` sets them and Parse enforces them: a
/// default fills a create that leaves the field out, and a required field must have a value
/// on create and may not be cleared by an update (142).
public struct FieldOptions: Sendable, Equatable {
    /// Whether the field must have a value; nil when `/schemas` did not say (shown as given).
    public var required: Bool?
    /// The value a create gets when it leaves the field out, in its wire form.
    public var defaultValue: JSON?

    /// Options with the given values.
    public init(required: Bool? = nil, defaultValue: JSON? = nil) {
        self.required = required
        self.defaultValue = defaultValue
    }

    /// Whether nothing is set (nothing is stored or shown).
    public var isEmpty: Bool { required == nil && defaultValue == nil }

    /// The options' members of a field's `/schemas` JSON.
    public var members: [String: JSON] {
        var members: [String: JSON] = [:]
        if let required { members["required"] = .bool(required) }
        if let defaultValue { members["defaultValue"] = defaultValue }
        return members
    }

    /// Reads the options of a `/schemas` field spec for a field of `type`, refusing, as Parse
    /// does, a default of another type and either option on a relation (111).
    public init(spec: [String: JSON], type: FieldType, field: String, className: ClassName) throws(ParseError) {
        switch spec["required"] {
        case nil, .null?: break
        case .bool(let flag)?: required = flag
        case let other?: throw ParseError(.incorrectType, "required of \(className).\(field) must be a boolean, not \(other.kindName)")
        }
        if let value = spec["defaultValue"], value != .null {
            defaultValue = value
        }
        guard !isEmpty else { return }
        if case .relation = type, required == true || defaultValue != nil {
            let option = defaultValue != nil ? "default value" : "required"
            throw ParseError(.incorrectType, "The '\(option)' option is not applicable for Relation<\(type.targetClass?.rawValue ?? "")>")
        }
        guard let defaultValue else { return }
        // Stored in the schema's JSON text, where PostgreSQL refuses a NUL: refused up front on
        // both databases rather than failing on one.
        if Self.containsNUL(defaultValue) { throw ParseError(.incorrectType, "default value of \(className).\(field) contains NUL") }
        if type == .acl { throw ParseError(.incorrectType, "invalid field type: ACL") }
        let implied: FieldType?
        do {
            implied = try ObjectWrite(body: [field: defaultValue], isCreate: true).impliedTypes()[field]
        } catch {
            let reason = error.message
            throw ParseError(.incorrectType, "invalid default value for \(className).\(field): \(reason)")
        }
        guard let implied, implied == type else {
            throw ParseError(
                .incorrectType,
                "schema mismatch for \(className).\(field) default value; expected \(type.name) but got \(implied?.name ?? defaultValue.kindName)")
        }
    }

    private static func containsNUL(_ value: JSON) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains(where: containsNUL)
        case .object(let members): members.contains { $0.key.utf8.contains(0) || containsNUL($0.value) }
        default: false
        }
    }

    /// Reads stored options (written by this server, so not checked again).
    public init(stored: JSON) {
        required = stored["required"]?.boolValue
        defaultValue = stored["defaultValue"].flatMap { $0 == .null ? nil : $0 }
    }
}

extension ClassSchema {
    /// A create's body with defaults filled in; 142 when a required field is left without a
    /// value (missing, null, empty string or deleted, as in Parse).
    public func applyingFieldOptions(toCreate body: [String: JSON]) throws(ParseError) -> [String: JSON] {
        var body = body
        for (name, options) in fieldOptions.sorted(by: { $0.key < $1.key }) {
            let value = body[name]
            if let defaultValue = options.defaultValue, value == nil || Self.isDelete(value) { body[name] = defaultValue }
            if options.required == true, Self.isEmptyValue(body[name]) {
                throw ParseError(.validationError, "\(name) is required")
            }
        }
        return body
    }

    /// 142 when an update clears a required field (null, empty string or delete).
    public func checkFieldOptions(update body: [String: JSON]) throws(ParseError) {
        for (name, value) in body.sorted(by: { $0.key < $1.key }) where fieldOptions[name]?.required == true && Self.isEmptyValue(value) {
            throw ParseError(.validationError, "\(name) is required")
        }
    }

    private static func isDelete(_ value: JSON?) -> Bool { value?["__op"]?.stringValue == "Delete" }

    private static func isEmptyValue(_ value: JSON?) -> Bool {
        guard let value else { return true }
        return value == .null || value == .string("") || isDelete(value)
    }
}
