import Foundation
import RooftopCore
import RooftopServices

/// `/hooks` (master key): Parse's webhooks API, for logic in any language outside the process.
extension ParseRoutes {
    /// `GET /hooks/functions`: every function hook.
    func listFunctionHooks(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .array(try await webhooks.all().filter { $0.functionName != nil }.map(\.json)))
    }

    /// `GET /hooks/triggers`: every trigger hook.
    func listTriggerHooks(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .array(try await webhooks.all().filter { $0.className != nil }.map(\.json)))
    }

    /// `GET /hooks/functions/:functionName` or `/hooks/triggers/:className/:triggerName`.
    func getHook(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: try await webhooks.find(Self.hookKey(request)).json)
    }

    /// `POST /hooks/functions` or `/hooks/triggers`: registers a hook; 143 for one that exists,
    /// for a URL outside `webhookHosts`, or for a name the server's code defines.
    func createHook(_ request: ParseRequest) async throws -> ParseResponse {
        let hook = try await webhooks.create(request.body) { hook in
            if let name = hook.functionName { return functions.defines(name) }
            guard let className = hook.className.flatMap({ try? ClassName($0) }), let kind = hook.triggerName.flatMap(TriggerKind.init) else {
                return false
            }
            return objects.triggers.inCode(kind, className)
        }
        return ParseResponse(body: hook.json)
    }

    /// `PUT` of a hook: a new `url`, or `{"__op":"Delete"}` to remove it.
    func updateHook(_ request: ParseRequest) async throws -> ParseResponse {
        let key = try Self.hookKey(request)
        if request.body["__op"]?.stringValue == "Delete" {
            try await webhooks.delete(key)
            return ParseResponse(body: [:])
        }
        return ParseResponse(body: try await webhooks.update(key, body: request.body).json)
    }

    /// `DELETE` of a hook.
    func deleteHook(_ request: ParseRequest) async throws -> ParseResponse {
        try await webhooks.delete(try Self.hookKey(request))
        return ParseResponse(body: [:])
    }

    /// The hook a path names (its URL is not part of the key).
    static func hookKey(_ request: ParseRequest) throws(ParseError) -> Webhook {
        if let name = request.pathParameters["functionName"] { return Webhook(functionName: name.removingPercentEncoding ?? name, url: "") }
        return Webhook(className: request.pathParameters["className"] ?? "", triggerName: request.pathParameters["triggerName"] ?? "", url: "")
    }
}
