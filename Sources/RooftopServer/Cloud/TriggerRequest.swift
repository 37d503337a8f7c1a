public import RooftopCore
import RooftopServices

/// What a trigger is told (Parse's `request` in `beforeSave`, `afterFind` …).
///
/// `object` depends on the kind: before a save, the changes the client sent (plain values or
/// Parse operations such as `{"__op":"Increment"}`), which the trigger may change; after a save,
/// the object as stored; around a delete, the object; before a find, the query's parameters
/// (`where`, `limit`, `order`, `keys` …), which the trigger may change; around logins and
/// password-reset requests, the user; after a logout, the session.
@dynamicMemberLookup
public struct TriggerRequest: Sendable {
    /// The trigger's kind: `beforeSave`, `afterSave`, `beforeDelete`, `afterDelete`,
    /// `beforeFind`, `afterFind`, `beforeLogin`, `afterLogin`, `afterLogout` or
    /// `beforePasswordResetRequest`.
    public let kind: String
    /// The class concerned.
    public let className: String
    /// The object's id; nil before a create is written and for queries.
    public let objectId: String?
    /// The changes, the object or the query parameters (see the type's documentation).
    public var object: [String: JSON]
    /// Around an update: the object as it was stored before (the master key's view).
    public let original: [String: JSON]?
    /// After a find: the objects the caller receives.
    public let results: [[String: JSON]]
    /// Who made the request (its members read as the request's own: `request.userId` …). A
    /// trigger's own writes through `objects` run the triggers of the classes they touch: a
    /// before-save that writes its own class again must stop the loop itself.
    public let caller: RequestCaller

    /// The caller's members, as the request's own.
    public subscript<Value>(dynamicMember member: KeyPath<RequestCaller, Value>) -> Value { caller[keyPath: member] }

    /// Before a create is written.
    public var isNew: Bool { kind == "beforeSave" ? objectId == nil : original == nil }

    init(_ event: TriggerEvent) {
        kind = event.kind.rawValue
        className = event.className.rawValue
        objectId = event.objectId
        object = event.object
        original = event.original
        results = event.results.compactMap(\.objectValue)
        caller = RequestCaller(event.caller, objects: event.objects)
    }

    /// Before a save: the value `key` will have if it is a plain value in the changes, else the
    /// stored one (an operation's result is not known before the write).
    public func value(_ key: String) -> JSON? {
        if let change = object[key], change["__op"] == nil { return change }
        return original?[key]
    }
}
