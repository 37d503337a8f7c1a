/// A class's class-level permissions (CLP), set through `/schemas`.
public struct ClassLevelPermissions: Sendable, Equatable {
    /// The operations a CLP governs.
    public enum Operation: String, Sendable, CaseIterable {
        case find, count, get, create, update, delete, addField
    }

    /// Who may perform one operation.
    public struct Rule: Sendable, Equatable {
        /// `*`, user ids and `role:<name>` entries.
        public var entries: Set<String>
        /// Whether any signed-in user may.
        public var requiresAuthentication: Bool
        /// Pointer fields whose referenced user may (restricting the query to such objects).
        public var pointerFields: [FieldName]

        /// Creates a rule.
        public init(entries: Set<String> = [], requiresAuthentication: Bool = false, pointerFields: [FieldName] = []) {
            self.entries = entries
            self.requiresAuthentication = requiresAuthentication
            self.pointerFields = pointerFields
        }

        /// Everyone.
        public static let everyone = Rule(entries: ["*"])
    }

    /// The rule per operation; a missing operation allows everyone, as in Parse.
    public var rules: [Operation: Rule]
    /// Fields whose referenced users may read (find/get/count).
    public var readUserFields: [FieldName]
    /// Fields whose referenced users may write (update/delete).
    public var writeUserFields: [FieldName]
    /// Fields hidden per audience: `*`, `authenticated`, `role:<name>`, a user id, `userField:<f>`.
    public var protectedFields: [String: [String]]

    /// Creates a CLP.
    public init(
        rules: [Operation: Rule] = [:], readUserFields: [FieldName] = [], writeUserFields: [FieldName] = [],
        protectedFields: [String: [String]] = [:]
    ) {
        self.rules = rules
        self.readUserFields = readUserFields
        self.writeUserFields = writeUserFields
        self.protectedFields = protectedFields
    }

    /// Everything public, Parse's default for a new class.
    public static let open = ClassLevelPermissions()

    /// The rule for `operation`.
    public func rule(_ operation: Operation) -> Rule { rules[operation] ?? .everyone }
}
