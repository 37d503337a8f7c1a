package import RooftopCore

/// The settings the use cases need (a slice of the server configuration).
package struct ServicesConfiguration: Sendable {
    /// Whether clients (without the master key) may create classes by writing to them.
    package var allowClientClassCreation: Bool = false
    /// Whether clients may choose objectIds on create.
    package var allowCustomObjectId: Bool = false
    /// Length of generated objectIds.
    package var objectIdSize: Int = 10
    /// `limit` when a query gives none.
    package var defaultLimit: Int = 100
    /// The cap on `limit`.
    package var maxLimit: Int = 1000
    /// The most objects an aggregate pipeline reads after its leading `$match`.
    package var aggregateInputLimit: Int = 100_000
    /// The most fields a class may have, its default fields included; a write or `/schemas`
    /// request that would go over is 255.
    package var maxFieldsPerClass: Int = 1000
    /// Query complexity limits.
    package var queryLimits = QueryLimits()
    /// Server-wide protected fields merged into each class's CLP (`{"_User":{"*":["email"]}}`).
    package var protectedFields: [String: [String: [String]]] = ["_User": ["*": ["email", "authData"]]]

    /// The ACL of objects created without one, by class name (`*` for every other class).
    package var defaultACL: [String: DefaultACL] = [:]

    /// The default ACL policy for `className`.
    package func defaultACL(for className: ClassName) -> DefaultACL {
        defaultACL[className.rawValue] ?? defaultACL["*"] ?? .public
    }

    /// Creates the defaults.
    package init() {}
}

/// What an object created without an ACL gets.
package enum DefaultACL: String, Sendable {
    /// No ACL: public read and write (Parse's behaviour).
    case `public`
    /// Created by a signed-in user: readable and writable by that user only. Created without a
    /// session it stays public.
    case owner
}
