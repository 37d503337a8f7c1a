public import RooftopCore
import RooftopServices

/// One call of a cloud function, as its handler sees it (Parse's `request` in `Cloud.define`).
public struct FunctionRequest: Sendable {
    /// The function's name.
    public let functionName: String
    /// The JSON parameters the client sent (with the defaults of ``FunctionRules`` filled in).
    public var params: [String: JSON]
    /// The signed-in user's objectId, when the request carried a valid session.
    public let userId: String?
    /// The roles of the signed-in user, directly or inherited.
    public let roles: [String]
    /// Whether the request carried the master key.
    public let isMaster: Bool
    /// The installation id the request carried (`X-Parse-Installation-Id`).
    public let installationId: String?
    /// The client's address (the one a trusted proxy named, else the socket's).
    public let ip: String?
    /// The request's headers, names in lower case; never the master key or `Authorization`.
    public let headers: [String: String]
    /// The database, as the caller or explicitly as the master key.
    public let objects: CloudObjects

    init(_ call: FunctionCall) {
        functionName = call.name
        params = call.params
        userId = call.caller.principal.userId
        roles = call.caller.principal.roles
        isMaster = call.caller.principal.isMaster
        installationId = call.caller.installationId
        ip = call.caller.clientIP
        headers = call.caller.headers
        objects = CloudObjects(objects: call.objects, caller: call.caller.principal)
    }

    /// The signed-in user's objectId; 142 "Please login to continue." without one.
    public func requireUser() throws(ParseError) -> String {
        guard let userId else { throw FunctionRules.loginRequired }
        return userId
    }

    /// The signed-in user's object as the master key reads it (without its password hash or
    /// session token); 142 without a signed-in user.
    public func user() async throws -> [String: JSON] {
        try await objects.get("_User", try requireUser(), as: .master)
    }
}
