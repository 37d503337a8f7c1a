public import RooftopCore

/// Checks a function's request before its handler runs (Parse's validator object): a failure
/// is 142 with Parse's messages, and the handler does not run.
public struct FunctionRules: Sendable {
    /// A signed-in user is required.
    public var requireUser: Bool
    /// The master key is required.
    public var requireMaster: Bool
    /// Rules for parameters, by name.
    public var fields: [String: FieldRule]

    /// Rules; none by default.
    public init(requireUser: Bool = false, requireMaster: Bool = false, fields: [String: FieldRule] = [:]) {
        self.requireUser = requireUser
        self.requireMaster = requireMaster
        self.fields = fields
    }

    static let loginRequired = ParseError(.validationError, "Validation failed. Please login to continue.")

    /// `params` with defaults filled in, or the first broken rule (fields in name order, so the
    /// same request always gets the same message).
    func check(_ params: [String: JSON], caller: Principal) throws(ParseError) -> [String: JSON] {
        if requireMaster && !caller.isMaster {
            throw ParseError(.validationError, "Validation failed. Master key is required to complete this request.")
        }
        if requireUser && caller.userId == nil { throw Self.loginRequired }
        var params = params
        for (name, rule) in fields.sorted(by: { $0.key < $1.key }) {
            guard let value = params[name], !value.isNull else {
                if let fallback = rule.defaultValue {
                    params[name] = fallback
                } else if rule.required {
                    throw ParseError(.validationError, "Validation failed. Please specify data for \(name).")
                }
                continue
            }
            guard rule.type.admits(value) else {
                throw ParseError(.validationError, "Validation failed. Invalid type for \(name). Expected: \(rule.type.rawValue)")
            }
            if let options = rule.options, !options.contains(value) {
                let listed = options.map { JSONWriter.string($0) }.joined(separator: ", ")
                throw ParseError(.validationError, "Validation failed. Invalid option for \(name). Expected: \(listed)")
            }
        }
        return params
    }
}

/// The rule for one parameter of a function.
public struct FieldRule: Sendable {
    /// The JSON type a parameter must have.
    public enum Kind: String, Sendable {
        /// Any value.
        case any
        /// A string.
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case boolean
        /// A JSON object.
        case object
        /// A JSON array.
        case array

        func admits(_ value: JSON) -> Bool {
            switch self {
            case .any: true
            case .string: value.stringValue != nil
            case .number: value.numberValue != nil
            case .boolean: value.boolValue != nil
            case .object: value.objectValue != nil
            case .array: value.arrayValue != nil
            }
        }
    }

    /// The type the value must have.
    public var type: Kind
    /// Whether the parameter must be present (and not `null`).
    public var required: Bool
    /// The only values allowed, when set.
    public var options: [JSON]?
    /// The value used when the parameter is missing.
    public var defaultValue: JSON?

    /// A rule.
    public init(_ type: Kind = .any, required: Bool = false, options: [JSON]? = nil, default defaultValue: JSON? = nil) {
        self.type = type
        self.required = required
        self.options = options
        self.defaultValue = defaultValue
    }
}
