import Foundation
import RooftopCore

/// Who may read and who may write an object: the public, users (by id) and roles (by name).
///
/// ```swift
/// var acl = RTACL(user: RTUser.currentUser())
/// acl.setPublicReadAccess(true)
/// post.ACL = acl
/// ```
public struct RTACL: Sendable, Equatable, CustomStringConvertible {
    private struct Access: Sendable, Equatable {
        var read = false
        var write = false
    }

    /// Entries by id: `*`, a user's objectId, or `role:<name>`.
    private var entries: [String: Access] = [:]
    /// Users not yet on the server (the automatic user): named by id once saved.
    private var pending: [(user: RTUser, access: Access)] = []

    /// No access for anyone (the master key still has it).
    public init() {}

    /// No access for anyone (the spelling apps written for Parse's SDK use).
    public static func ACL() -> RTACL { RTACL() }

    /// Read and write access for `user` only.
    public init(user: RTUser?) {
        if let user {
            setReadAccess(true, forUser: user)
            setWriteAccess(true, forUser: user)
        }
    }

    /// Read and write access for `user` only (the spelling apps written for Parse's SDK use).
    public static func ACLWithUser(_ user: RTUser?) -> RTACL { RTACL(user: user) }

    /// An ACL read from the server.
    init?(json: JSON) {
        guard let members = json.objectValue else { return nil }
        for (id, value) in members {
            entries[id] = Access(read: value["read"]?.boolValue == true, write: value["write"]?.boolValue == true)
        }
    }

    /// Whether everyone may read.
    public var publicReadAccess: Bool {
        get { entries["*"]?.read ?? false }
        set { setPublicReadAccess(newValue) }
    }

    /// Whether everyone may write.
    public var publicWriteAccess: Bool {
        get { entries["*"]?.write ?? false }
        set { setPublicWriteAccess(newValue) }
    }

    /// Lets everyone read, or not.
    public mutating func setPublicReadAccess(_ allowed: Bool) { entries["*", default: Access()].read = allowed }
    /// Lets everyone write, or not.
    public mutating func setPublicWriteAccess(_ allowed: Bool) { entries["*", default: Access()].write = allowed }

    /// Lets the user with `userId` read, or not.
    public mutating func setReadAccess(_ allowed: Bool, forUserId userId: String) { entries[userId, default: Access()].read = allowed }
    /// Lets the user with `userId` write, or not.
    public mutating func setWriteAccess(_ allowed: Bool, forUserId userId: String) { entries[userId, default: Access()].write = allowed }
    /// Whether the user with `userId` may read.
    public func getReadAccess(forUserId userId: String) -> Bool { entries[userId]?.read ?? false }
    /// Whether the user with `userId` may write.
    public func getWriteAccess(forUserId userId: String) -> Bool { entries[userId]?.write ?? false }

    /// Lets `user` read, or not (a user not yet saved is named once it is).
    public mutating func setReadAccess(_ allowed: Bool, forUser user: RTUser) { update(user) { $0.read = allowed } }
    /// Lets `user` write, or not.
    public mutating func setWriteAccess(_ allowed: Bool, forUser user: RTUser) { update(user) { $0.write = allowed } }
    /// Whether `user` may read.
    public func getReadAccess(forUser user: RTUser) -> Bool { access(user)?.read ?? false }
    /// Whether `user` may write.
    public func getWriteAccess(forUser user: RTUser) -> Bool { access(user)?.write ?? false }

    /// Lets the role called `name` read, or not.
    public mutating func setReadAccess(_ allowed: Bool, forRoleWithName name: String) { entries["role:" + name, default: Access()].read = allowed }
    /// Lets the role called `name` write, or not.
    public mutating func setWriteAccess(_ allowed: Bool, forRoleWithName name: String) { entries["role:" + name, default: Access()].write = allowed }
    /// Whether the role called `name` may read.
    public func getReadAccess(forRoleWithName name: String) -> Bool { entries["role:" + name]?.read ?? false }
    /// Whether the role called `name` may write.
    public func getWriteAccess(forRoleWithName name: String) -> Bool { entries["role:" + name]?.write ?? false }
    /// Lets `role` read, or not.
    public mutating func setReadAccess(_ allowed: Bool, forRole role: RTRole) { setReadAccess(allowed, forRoleWithName: role.name ?? "") }
    /// Lets `role` write, or not.
    public mutating func setWriteAccess(_ allowed: Bool, forRole role: RTRole) { setWriteAccess(allowed, forRoleWithName: role.name ?? "") }

    /// Applied to every new object without an ACL when it is first saved; with
    /// `currentUserAccess`, read and write access for the user the object belongs to (the
    /// current user when it was made) is added.
    public static func setDefaultACL(_ acl: RTACL?, withAccessForCurrentUser currentUserAccess: Bool) {
        RTClient.currentIfInstalled?.defaultACL = acl.map { ($0, currentUserAccess) }
    }

    private mutating func update(_ user: RTUser, _ change: (inout Access) -> Void) {
        if let id = user.objectId {
            change(&entries[id, default: Access()])
        } else if let index = pending.firstIndex(where: { $0.user === user }) {
            change(&pending[index].access)
        } else {
            var access = Access()
            change(&access)
            pending.append((user, access))
        }
    }

    private func access(_ user: RTUser) -> Access? {
        if let id = user.objectId, let access = entries[id] { return access }
        return pending.first { $0.user === user }?.access
    }

    /// Users named before they were saved.
    var unresolvedUsers: [RTUser] { pending.filter { $0.user.objectId == nil }.map(\.user) }

    /// The wire form; every user must have been saved by now.
    func json() throws(RTError) -> JSON {
        var result = entries
        for (user, access) in pending {
            guard let id = user.objectId else { throw RTError(.invalidACL, "An ACL names a user that was never saved.") }
            result[id, default: Access()].read = result[id, default: Access()].read || access.read
            result[id, default: Access()].write = result[id, default: Access()].write || access.write
        }
        var members: [String: JSON] = [:]
        for (id, access) in result where access.read || access.write {
            var entry: [String: JSON] = [:]
            if access.read { entry["read"] = true }
            if access.write { entry["write"] = true }
            members[id] = .object(entry)
        }
        return .object(members)
    }

    /// Equal when they grant the same access.
    public static func == (lhs: RTACL, rhs: RTACL) -> Bool { (try? lhs.json()) == (try? rhs.json()) && lhs.pending.count == rhs.pending.count }

    /// The ACL as Parse writes it.
    public var description: String { (try? json()).map { JSONWriter.string($0, sortedKeys: true) } ?? "<ACL with unsaved users>" }
}
