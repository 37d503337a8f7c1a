import RooftopCore
import RooftopServices

/// Who made the request a handler runs for. Function and trigger requests expose its members
/// as their own (`request.userId`, `request.isMaster` …).
public struct RequestCaller: Sendable {
    /// The signed-in user's objectId, when the request carried a valid session.
    public let userId: String?
    /// The signed-in user's roles, directly or inherited.
    public let roles: [String]
    /// Whether the request carried the master key.
    public let isMaster: Bool
    /// The installation id the request carried (`X-Parse-Installation-Id`).
    public let installationId: String?
    /// The client's address (the one a trusted proxy named, else the socket's).
    public let ip: String?
    /// The request's headers, names in lower case; never the master key, `Authorization` or
    /// cookies.
    public let headers: [String: String]
    /// The database, as the caller or explicitly as the master key.
    public let objects: CloudObjects

    init(_ caller: CloudCaller, objects: Objects) {
        userId = caller.principal.userId
        roles = caller.principal.roles
        isMaster = caller.principal.isMaster
        installationId = caller.installationId
        ip = caller.clientIP
        headers = caller.headers
        self.objects = CloudObjects(objects: objects, caller: caller.principal)
    }
}
