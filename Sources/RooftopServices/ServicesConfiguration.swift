public import RooftopCore

/// The settings the use cases need (a slice of the server configuration).
public struct ServicesConfiguration: Sendable {
    /// Whether clients (without the master key) may create classes by writing to them.
    public var allowClientClassCreation: Bool = false
    /// Whether clients may choose objectIds on create.
    public var allowCustomObjectId: Bool = false
    /// Length of generated objectIds.
    public var objectIdSize: Int = 10
    /// `limit` when a query gives none.
    public var defaultLimit: Int = 100
    /// The cap on `limit`.
    public var maxLimit: Int = 1000
    /// The most objects an aggregate pipeline reads after its leading `$match`.
    public var aggregateInputLimit: Int = 100_000
    /// The most fields a class may have, its default fields included; a write or `/schemas`
    /// request that would go over is 255.
    public var maxFieldsPerClass: Int = 1000
    /// Query complexity limits.
    public var queryLimits = QueryLimits()
    /// Server-wide protected fields merged into each class's CLP (`{"_User":{"*":["email"]}}`).
    public var protectedFields: [String: [String: [String]]] = ["_User": ["*": ["email", "authData"]]]

    /// The ACL of objects created without one, by class name (`*` for every other class).
    public var defaultACL: [String: DefaultACL] = [:]

    /// The default ACL policy for `className`.
    public func defaultACL(for className: ClassName) -> DefaultACL {
        defaultACL[className.rawValue] ?? defaultACL["*"] ?? .public
    }

    /// Creates the defaults.
    public init() {}
}

/// What an object created without an ACL gets.
public enum DefaultACL: String, Sendable {
    /// No ACL: public read and write (Parse's behaviour).
    case `public`
    /// Created by a signed-in user: readable and writable by that user only. Created without a
    /// session it stays public.
    case owner
}
