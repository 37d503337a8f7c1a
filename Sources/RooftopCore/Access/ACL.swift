/// An object's access control list: who may read and who may write.
///
/// Keys are `*` (public), a user's objectId or `role:<name>`. Stored as Parse stores it, as two
/// permission lists (`_rperm`, `_wperm`).
public struct ACL: Sendable, Equatable {
    /// Entries allowed to read.
    public var readers: Set<String>
    /// Entries allowed to write.
    public var writers: Set<String>

    /// Creates an ACL from permission sets.
    public init(readers: Set<String> = [], writers: Set<String> = []) {
        self.readers = readers
        self.writers = writers
    }

    /// Parses the wire form `{"*":{"read":true},"uid":{"read":true,"write":true}}` (123 when malformed).
    public init(json: JSON) throws(ParseError) {
        guard case .object(let entries) = json else { throw ParseError(.invalidACL, "Invalid ACL.") }
        var readers = Set<String>(), writers = Set<String>()
        for (key, value) in entries {
            guard ACL.isValidEntry(key), case .object(let perms) = value else { throw ParseError(.invalidACL, "Invalid ACL.") }
            for (perm, flag) in perms {
                guard case .bool(let allowed) = flag else { throw ParseError(.invalidACL, "Invalid ACL.") }
                switch perm {
                case "read": if allowed { readers.insert(key) }
                case "write": if allowed { writers.insert(key) }
                default: throw ParseError(.invalidACL, "Invalid ACL.")
                }
            }
        }
        self.init(readers: readers, writers: writers)
    }

    /// Whether `key` is `*`, `role:<name>` or something shaped like a user id.
    public static func isValidEntry(_ key: String) -> Bool {
        if key == "*" { return true }
        if key.hasPrefix("role:") {
            let name = key.dropFirst(5)
            return !name.isEmpty && name.utf8.count <= 128
        }
        return ObjectId.isPlausible(key)
    }

    /// The wire form.
    public var json: JSON {
        var entries: [String: JSON] = [:]
        for key in readers.union(writers) {
            var perms: [String: JSON] = [:]
            if readers.contains(key) { perms["read"] = true }
            if writers.contains(key) { perms["write"] = true }
            entries[key] = .object(perms)
        }
        return .object(entries)
    }
}
