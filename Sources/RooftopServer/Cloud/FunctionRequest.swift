public import RooftopCore
import RooftopServices

/// One call of a cloud function, as its handler sees it (Parse's `request` in `Cloud.define`):
/// its parameters, and who called (`userId`, `roles`, `isMaster`, `installationId`, `ip`,
/// `headers`, `objects`: see ``RequestCaller``).
@dynamicMemberLookup
public struct FunctionRequest: Sendable {
    /// The function's name.
    public let functionName: String
    /// The JSON parameters the client sent (with the defaults of ``FunctionRules`` filled in).
    public var params: [String: JSON]
    /// Who called.
    public let caller: RequestCaller

    init(_ call: FunctionCall) {
        functionName = call.name
        params = call.params
        caller = RequestCaller(call.caller, objects: call.objects)
    }

    /// The caller's members, as the request's own.
    public subscript<Value>(dynamicMember member: KeyPath<RequestCaller, Value>) -> Value { caller[keyPath: member] }

    /// The signed-in user's objectId; 142 "Please login to continue." without one.
    public func requireUser() throws(ParseError) -> String {
        guard let userId = caller.userId else { throw FunctionRules.loginRequired }
        return userId
    }

    /// The signed-in user's object as the master key reads it (without its password hash or
    /// session token); 142 without a signed-in user.
    public func user() async throws -> [String: JSON] {
        try await caller.objects.get("_User", try requireUser(), as: .master)
    }
}
