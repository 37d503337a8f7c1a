/// Who is making a request: the master key, a signed-in user with its roles, or the public.
public struct Principal: Sendable, Equatable {
    /// Whether the request carries the master key.
    public let isMaster: Bool
    /// The signed-in user's objectId, if any.
    public let userId: String?
    /// Names of every role the user has, directly or through inheritance.
    public let roles: [String]

    /// Creates a principal.
    public init(isMaster: Bool = false, userId: String? = nil, roles: [String] = []) {
        self.isMaster = isMaster
        self.userId = userId
        self.roles = roles
    }

    /// The master key: bypasses ACLs, CLPs and protected fields.
    public static let master = Principal(isMaster: true)
    /// A caller without a session.
    public static let anonymous = Principal()

    /// Creates a signed-in user's principal.
    public static func user(_ id: String, roles: [String] = []) -> Principal { Principal(userId: id, roles: roles) }

    /// The ACL entries this caller matches: `*`, its id, and `role:<name>` for each role.
    public var aclGroup: [String] {
        var group = ["*"]
        if let userId { group.append(userId) }
        group.append(contentsOf: roles.map { "role:" + $0 })
        return group
    }

    /// Whether a user is signed in.
    public var isAuthenticated: Bool { userId != nil }
}
