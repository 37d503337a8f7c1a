import Foundation
import RooftopCore

/// A user account: an `RTObject` of class `_User` with a username, a password, an email
/// address, and the sign-up, login and session calls.
///
/// ```swift
/// let user = RTUser()
/// user.username = "ana"
/// user.password = "correct horse battery"
/// user.email = "ana@example.com"
/// try await user.signUp()
/// ```
open class RTUser: RTObject, @unchecked Sendable {
    private var deviceId: String?

    /// A new user, to be signed up.
    public init() { super.init(className: "_User") }

    /// A reference to the existing user with `objectId`, without its data.
    public convenience init(withoutDataWithObjectId objectId: String) {
        self.init()
        self.objectId = objectId
        markWithoutData()
    }

    /// A new user (the spelling apps written for Parse's SDK use).
    open class func user() -> RTUser { RTUser() }

    /// This user's record on the device, when it signed in here.
    var localId: String? {
        get { lock.withLock { deviceId } }
        set { lock.withLock { deviceId = newValue } }
    }

    /// The username (required).
    public var username: String? {
        get { self["username"] as? String }
        set { self["username"] = newValue }
    }

    /// The password: sent at sign-up or at the next save, never stored on the device and never
    /// read back from the server.
    public var password: String? {
        get { self["password"] as? String }
        set { self["password"] = newValue }
    }

    /// The email address (optional).
    public var email: String? {
        get { self["email"] as? String }
        set { self["email"] = newValue }
    }

    /// Whether the email address is confirmed; nil when verification is off or there is no
    /// address (three states: verified, not yet, not applicable). Refresh the user to see a change.
    public var emailVerified: Bool? { self["emailVerified"] as? Bool }

    /// The session of a user signed in on this device; nil otherwise.
    public var sessionToken: String? { RTClient.currentIfInstalled?.users.token(of: self) }

    /// Whether this user was obtained by signing up, logging in, `become` or `currentUser()`
    /// on this device; only such a user can be saved or deleted.
    public var isAuthenticated: Bool {
        guard let users = RTClient.currentIfInstalled?.users, users.contains(self) else { return false }
        return users.token(of: self) != nil || objectId == nil
    }

    /// Whether this is the current user (the same account, whichever instance holds it).
    public var isCurrentUser: Bool {
        guard let current = RTClient.currentIfInstalled?.users.activeUser else { return false }
        return current === self || (objectId != nil && current.objectId == objectId)
    }

    /// Where this user stands on this device.
    public var state: RTUserState { RTClient.currentIfInstalled?.users.state(of: self) ?? .removed }

    /// Whether this user has a record on this device.
    var isDeviceAccount: Bool { RTClient.currentIfInstalled?.users.contains(self) ?? false }

    /// The automatic user before its first save: current, but not on the server yet.
    var isLazy: Bool { objectId == nil && isDeviceAccount }

    /// Creates the automatic user on the server (as an anonymous user) with its unsaved fields.
    func createAutomaticUser(_ client: RTClient) async throws {
        var (count, body) = try pendingBody()
        body = .object((body.objectValue ?? [:]).merging(["authData": ["anonymous": ["id": .string(UUID().uuidString.lowercased())]]]) { $1 })
        await client.registerDevice()
        let answer = try await client.send(APIRequest(method: "POST", path: "/users", body: body), as: nil)
        guard let fields = answer.objectValue, let token = fields["sessionToken"]?.stringValue else {
            throw RTError(.invalidJSON, "The server's answer to creating a user has no session.")
        }
        applySaved(count: count, answer: fields)
        client.users.signedIn(fields: fields, token: token, anonymous: true, into: self)
    }

    /// `<_User: id> {fields}`, without the password.
    open override var description: String {
        "<_User: \(objectId ?? "new")> {username = \(username ?? "nil"); email = \(email ?? "nil")}"
    }
}

/// An `RTObject` of class `_Role`: a named group of users and roles, used in ACLs.
open class RTRole: RTObject, @unchecked Sendable {
    /// A role called `name`, readable and writable as `acl` says.
    public convenience init(name: String, acl: RTACL? = nil) {
        self.init(className: "_Role")
        self["name"] = name
        if let acl { ACL = acl }
    }

    /// The role's name: letters, digits, `_`, `-` and spaces; fixed once saved.
    public var name: String? {
        get { self["name"] as? String }
        set { self["name"] = newValue }
    }

    /// The users in this role.
    public var users: RTRelation<RTUser> { RTRelation(parent: self, key: "users", targetClassName: "_User") }

    /// The roles whose users are in this role too.
    public var roles: RTRelation<RTRole> { RTRelation(parent: self, key: "roles", targetClassName: "_Role") }

    /// A query for roles.
    public class func query() -> RTQuery<RTRole> { RTQuery<RTRole>(typedClassName: "_Role") }
}
