public import Foundation
import RooftopCore

/// An object of a class on the server: a key-value store with an id, timestamps and an ACL.
///
/// ```swift
/// let note = RTObject(className: "Note")
/// note["content"] = "This note is private!"
/// try await note.save()
/// ```
///
/// An object belongs to the user who was signed in when it was made (or, if nobody was, to
/// the user signed in at its first request): its requests carry that user's session, even after
/// another user becomes current. Thread-safe: every property may be used from any thread.
open class RTObject: @unchecked Sendable, CustomStringConvertible {
    /// The class, e.g. `"Note"` (`"_User"` for users).
    public let className: String
    let lock = NSRecursiveLock()
    private var id: String?
    private var created: Date?
    private var updated: Date?
    /// The fields as last read from or saved to the server.
    var serverData: [String: Any] = [:]
    /// Changes not yet saved, by key, in the order they were made.
    var operations: [(key: String, operation: PendingOperation)] = []
    private var hasData = true
    private var owner: RTUser?

    /// A new object of `className`, to be saved.
    public init(className: String) {
        self.className = className
        owner = (self is RTUser) ? nil : RTClient.currentIfInstalled?.users.activeUser
    }

    /// A new object of `className` (the spelling apps written for Parse's SDK use).
    open class func objectWithClassName(_ className: String) -> RTObject { RTObject(className: className) }

    /// A reference to an existing object, without its data (`fetch()` loads it).
    public convenience init(withoutDataWithClassName className: String, objectId: String) {
        self.init(className: className)
        id = objectId
        hasData = false
    }

    /// The object stands for a server object whose fields are not loaded.
    func markWithoutData() { lock.withLock { hasData = false } }

    /// The right Swift class for `className`, bound to `user`.
    static func make(className: String, user: RTUser?) -> RTObject {
        let object: RTObject =
            switch className {
            case "_User": RTUser()
            case "_Role": RTRole(className: "_Role")
            default: RTObject(className: className)
            }
        object.lock.withLock {
            object.owner = user
            object.hasData = false
        }
        return object
    }

    /// The server's id; nil until saved.
    public var objectId: String? {
        get { lock.withLock { id } }
        set { lock.withLock { id = newValue } }
    }

    /// When the object was first saved.
    public var createdAt: Date? { lock.withLock { created } }
    /// When the object was last saved.
    public var updatedAt: Date? { lock.withLock { updated } }
    /// Whether the object's fields have been loaded (false for a pointer not yet fetched).
    public var isDataAvailable: Bool { lock.withLock { hasData } }
    /// Whether there are changes not yet saved (a new object is always dirty).
    public var isDirty: Bool { lock.withLock { id == nil || !operations.isEmpty } }

    /// The user whose session this object's requests carry.
    var boundUser: RTUser? {
        get { lock.withLock { owner } }
        set { lock.withLock { owner = newValue } }
    }

    /// The value of `key` with unsaved changes applied: `String`, `NSNumber` (numbers read from
    /// the server; `as? Int` and `as? Double` both work), `Bool`, `Date`, `Data`, `[Any]`,
    /// `[String: Any]`, `RTObject`, `RTGeoPoint`, `NSNull`. Setting nil removes the key.
    public subscript(key: String) -> Any? {
        get { object(forKey: key) }
        set {
            if let newValue { setObject(newValue, forKey: key) } else { removeObject(forKey: key) }
        }
    }

    /// The value of `key`, unsaved changes applied.
    public func object(forKey key: String) -> Any? {
        lock.withLock {
            var value = serverData[key]
            for entry in operations where entry.key == key { value = entry.operation.apply(to: value) }
            return value
        }
    }

    /// Sets `key` to `object`.
    public func setObject(_ object: Any, forKey key: String) { record(.set(object), forKey: key) }

    /// Removes `key` (on the server too, at the next save).
    public func removeObject(forKey key: String) { record(.delete, forKey: key) }

    /// Adds 1 to the number at `key`, atomically on the server.
    public func incrementKey(_ key: String) { record(.increment(1), forKey: key) }
    /// Adds `amount` to the number at `key`, atomically on the server.
    public func incrementKey(_ key: String, byAmount amount: Double) { record(.increment(amount), forKey: key) }
    /// Adds `amount` to the number at `key`, atomically on the server.
    public func incrementKey(_ key: String, byAmount amount: Int) { record(.increment(Double(amount)), forKey: key) }
    /// Appends `object` to the array at `key`.
    public func add(_ object: Any, forKey key: String) { record(.add([object]), forKey: key) }
    /// Appends `objects` to the array at `key`.
    public func addObjects(from objects: [Any], forKey key: String) { record(.add(objects), forKey: key) }
    /// Appends `object` to the array at `key` unless it is there already.
    public func addUnique(_ object: Any, forKey key: String) { record(.addUnique([object]), forKey: key) }
    /// Appends each of `objects` that is not in the array at `key` yet.
    public func addUniqueObjects(from objects: [Any], forKey key: String) { record(.addUnique(objects), forKey: key) }
    /// Removes every occurrence of `object` from the array at `key`.
    public func remove(_ object: Any, forKey key: String) { record(.remove([object]), forKey: key) }
    /// Removes every occurrence of each of `objects` from the array at `key`.
    public func removeObjects(in objects: [Any], forKey key: String) { record(.remove(objects), forKey: key) }

    /// Every key with a value, unsaved changes applied.
    public var allKeys: [String] {
        lock.withLock {
            Set(serverData.keys).union(operations.map(\.key)).filter { key in
                var value = serverData[key]
                for entry in operations where entry.key == key { value = entry.operation.apply(to: value) }
                return value != nil && key != "ACL"
            }.sorted()
        }
    }

    /// Who may read and write this object; `nil` leaves it to the default ACL and the server.
    public var ACL: RTACL? {
        get { object(forKey: "ACL") as? RTACL }
        set {
            if let newValue { record(.set(newValue), forKey: "ACL") } else { removeObject(forKey: "ACL") }
        }
    }

    func record(_ operation: PendingOperation, forKey key: String) {
        lock.withLock {
            if let index = operations.lastIndex(where: { $0.key == key }) {
                var current = serverData[key]
                for entry in operations[..<index] where entry.key == key { current = entry.operation.apply(to: current) }
                operations[index].operation = operations[index].operation.then(operation, current: current)
            } else {
                operations.append((key, operation))
            }
        }
    }

    /// Takes in the server's answer: `complete` replaces every field (a fetch), otherwise the
    /// answer's fields are merged (a save's response).
    func merge(server fields: [String: JSON], user: RTUser?, complete: Bool) {
        var decoded: [String: Any] = [:]
        for (key, value) in fields where !["objectId", "createdAt", "updatedAt", "className", "__type", "sessionToken"].contains(key) {
            decoded[key] = key == "ACL" ? (RTACL(json: value) as Any) : ValueCoding.decode(value, user: user)
        }
        lock.withLock {
            if let objectId = fields["objectId"]?.stringValue { id = objectId }
            if let text = fields["createdAt"]?.stringValue, let date = ParseDate(iso: text)?.date { created = date }
            if let text = fields["updatedAt"]?.stringValue, let date = ParseDate(iso: text)?.date {
                updated = date
            } else if fields["createdAt"] != nil {
                updated = created
            }
            if complete {
                serverData = decoded
                hasData = true
            } else {
                serverData.merge(decoded) { $1 }
            }
        }
    }

    /// The saved state as server JSON: fields, id and timestamps (what the device keeps).
    func serverJSON() -> JSON {
        lock.withLock {
            var fields: [String: JSON] = [:]
            for (key, value) in serverData { fields[key] = try? ValueCoding.encode(value) }
            if let id { fields["objectId"] = .string(id) }
            if let created { fields["createdAt"] = .string(ParseDate(created).iso) }
            if let updated { fields["updatedAt"] = .string(ParseDate(updated).iso) }
            return .object(fields)
        }
    }

    /// `<Note: objectId, {fields}>`; never shows a session token.
    open var description: String {
        let fields = allKeys.map { "\($0) = \(object(forKey: $0).map { "\($0)" } ?? "nil")" }.joined(separator: "; ")
        return "<\(className): \(objectId ?? "new")> {\(fields)}"
    }
}

extension RTObject: Hashable {
    /// The same instance (as Parse's SDKs compare objects).
    public static func == (lhs: RTObject, rhs: RTObject) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
