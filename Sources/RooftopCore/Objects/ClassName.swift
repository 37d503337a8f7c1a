/// A validated Parse class name: the only way a class name reaches SQL.
///
/// User classes match `^[A-Za-z][A-Za-z0-9_]*$` (at most 128 characters); system classes are a
/// closed list. Anything else is error 103.
public struct ClassName: Hashable, Sendable, CustomStringConvertible {
    /// The class name as written on the wire.
    public let rawValue: String

    /// System classes that exist in Parse.
    public static let systemClasses: Set<String> = [
        "_User", "_Installation", "_Role", "_Session", "_Product", "_PushStatus", "_JobStatus",
        "_JobSchedule", "_Audience", "_Idempotency", "_Hooks", "_GlobalConfig", "_GraphQLConfig", "_Audit",
    ]

    /// Classes that only the master key may touch at all.
    public static let masterOnlyClasses: Set<String> = [
        "_JobStatus", "_PushStatus", "_Hooks", "_GlobalConfig", "_JobSchedule", "_Idempotency",
        "_GraphQLConfig", "_Audience", "_Audit",
    ]

    /// Validates `rawValue` as a class name.
    public init(_ rawValue: String) throws(ParseError) {
        guard ClassName.isValid(rawValue) else {
            throw ParseError(.invalidClassName, "Invalid class name: \(ClassName.printable(rawValue))")
        }
        self.rawValue = rawValue
    }

    private init(trusted: String) { rawValue = trusted }

    /// `_User`.
    public static let user = ClassName(trusted: "_User")
    /// `_Role`.
    public static let role = ClassName(trusted: "_Role")
    /// `_Session`.
    public static let session = ClassName(trusted: "_Session")
    /// `_Audit`: the authentication audit log, written by the server only.
    public static let audit = ClassName(trusted: "_Audit")
    /// `_Installation`.
    public static let installation = ClassName(trusted: "_Installation")
    /// `_Hooks`: the webhooks registered through `/hooks`.
    public static let hooks = ClassName(trusted: "_Hooks")
    /// `_JobStatus`: one object per background job run.
    public static let jobStatus = ClassName(trusted: "_JobStatus")
    /// `_GlobalConfig`: Parse Config's values (one object, id `1`).
    public static let globalConfig = ClassName(trusted: "_GlobalConfig")

    /// Whether `name` is a user class name or a known system class.
    public static func isValid(_ name: String) -> Bool {
        if systemClasses.contains(name) { return true }
        return FieldName.isIdentifier(name)
    }

    /// Whether this is one of Parse's underscore classes.
    public var isSystem: Bool { rawValue.hasPrefix("_") }

    /// Whether only the master key may use this class.
    public var isMasterOnly: Bool { ClassName.masterOnlyClasses.contains(rawValue) }

    /// The class name.
    public var description: String { rawValue }

    /// A bounded, printable copy of untrusted text for error messages.
    public static func printable(_ text: String) -> String {
        let clipped = text.unicodeScalars.prefix(64).filter { $0.value >= 0x20 && $0.value != 0x7F }
        return String(String.UnicodeScalarView(clipped))
    }
}
