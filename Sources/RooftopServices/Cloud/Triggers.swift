package import RooftopCore

/// The moments a trigger can run at (Parse's trigger types).
package enum TriggerKind: String, Sendable, CaseIterable {
    /// Before a create or update is checked and written; may change the changes or refuse.
    case beforeSave
    /// After a create or update is written; cannot change the answer.
    case afterSave
    /// Before a delete; may refuse.
    case beforeDelete
    /// After a delete.
    case afterDelete
    /// Before a query or get; may change its parameters or refuse.
    case beforeFind
    /// After a query or get, with the objects found; cannot change the answer.
    case afterFind
    /// After a login's credentials checked out, before its session exists; may refuse.
    case beforeLogin
    /// After a login's session was created.
    case afterLogin
    /// After a logout ended its session.
    case afterLogout
    /// When a password reset is requested for an existing user, before its mail; may refuse.
    case beforePasswordResetRequest

    /// Whether the trigger's failure stops what it runs around (the "before" kinds).
    package var canRefuse: Bool {
        switch self {
        case .beforeSave, .beforeDelete, .beforeFind, .beforeLogin, .beforePasswordResetRequest: true
        default: false
        }
    }
}

/// What a trigger is told; `object` is what it may change (before-save: the changes as sent;
/// before-find: the query's parameters; otherwise the object concerned).
package struct TriggerEvent: Sendable {
    /// The trigger's kind.
    package var kind: TriggerKind
    /// The class concerned.
    package var className: ClassName
    /// The object's id; nil for a create's before-save and for finds.
    package var objectId: String?
    /// The changes, the object, or the query parameters (see the type's documentation).
    package var object: [String: JSON]
    /// The object as stored before an update (as the master key reads it).
    package var original: [String: JSON]?
    /// After-find: the objects the caller gets.
    package var results: [JSON] = []
    /// Who made the request.
    package var caller: CloudCaller
    /// The object use cases, for the trigger's own reads and writes.
    package var objects: Objects
}

/// A registered trigger.
package struct CloudTrigger: Sendable {
    /// How long it may run; `nil`: the server's default.
    package var timeout: Duration?
    /// The handler: for the kinds that may change something, the new `object`.
    package var run: @Sendable (TriggerEvent) async throws -> [String: JSON]

    /// Creates a trigger.
    package init(timeout: Duration? = nil, run: @escaping @Sendable (TriggerEvent) async throws -> [String: JSON]) {
        self.timeout = timeout
        self.run = run
    }
}

/// Where a trigger is registered: its kind and class.
package struct TriggerKey: Hashable, Sendable {
    /// The kind.
    package var kind: TriggerKind
    /// The class's name (`_User` for the login kinds, `_Session` for `afterLogout`).
    package var className: String

    /// Creates a key.
    package init(_ kind: TriggerKind, _ className: String) {
        self.kind = kind
        self.className = className
    }
}
