package import RooftopCore

/// Calls to webhooks with Parse's payload, and their answers read as Parse reads them:
/// `{"success": …}` is the result; `{"error": "…"}` (or `{"error": {"code": …, "message": …}}`)
/// a refusal; anything else a failure (143).
extension WebhookRegistry {
    /// Calls the function hook at `url`: the function's result.
    package func callFunction(_ url: String, _ call: FunctionCall) async throws -> JSON {
        var payload = try await callerPayload(call.caller, objects: call.objects)
        payload["functionName"] = .string(call.name)
        payload["params"] = .object(call.params)
        return try await send(url, payload)
    }

    /// Calls the trigger hook at `url`: for a before-save, the changes it answers with (the
    /// event's own when it answers no object).
    package func callTrigger(_ url: String, _ event: TriggerEvent) async throws -> [String: JSON] {
        var payload = try await callerPayload(event.caller, objects: event.objects)
        payload["triggerName"] = .string(event.kind.rawValue)
        payload["object"] = .object(event.object.merging(["className": .string(event.className.rawValue)]) { $1 })
        if let original = event.original { payload["original"] = .object(original.merging(["className": .string(event.className.rawValue)]) { $1 }) }
        let result = try await send(url, payload)
        guard event.kind == .beforeSave, case .object(var changed) = result else { return event.object }
        for key in ["className", "objectId", "createdAt", "updatedAt", "__type"] { changed[key] = nil }
        return changed
    }

    /// Who called, as Parse's webhook payload says it: `master`, `user`, `installationId`,
    /// `ip` and `headers`.
    func callerPayload(_ caller: CloudCaller, objects: Objects) async throws -> [String: JSON] {
        var payload: [String: JSON] = ["master": .bool(caller.principal.isMaster), "headers": .object(caller.headers.mapValues(JSON.string))]
        payload["installationId"] = caller.installationId.map(JSON.string)
        payload["ip"] = caller.clientIP.map(JSON.string)
        if let userId = caller.principal.userId, let user = try await objects.storedForTrigger(.user, userId, principal: .master) {
            payload["user"] = .object(user.merging(["className": "_User", "__type": "Object"]) { $1 })
        }
        return payload
    }

    /// POSTs `payload` to `url` and reads the answer.
    func send(_ url: String, _ payload: [String: JSON]) async throws -> JSON {
        guard let transport else { throw Self.failed }
        // The URL is checked again at call time: the allow-list may have shrunk since.
        try checkURL(url)
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await transport.post(url, body: JSONWriter.bytes(.object(payload)), key: settings.key, timeout: settings.timeout)
        } catch is WebhookTimedOut {
            throw BoundedRun.timedOut
        } catch {
            throw Self.failed
        }
        guard let body = (try? JSONParser.parse(answer.body))?.objectValue else { throw Self.failed }
        if let error = body["error"] { throw Self.refusal(error) }
        guard (200..<300).contains(answer.status), let result = body["success"] else { throw Self.failed }
        return result
    }

    static let failed = ParseError(.webhookError, "The webhook failed.")

    /// The webhook's own refusal, as its client sees it: its code (141 when it gives none) and
    /// message, bounded.
    static func refusal(_ error: JSON) -> ParseError {
        if case .string(let message) = error { return ParseError(.scriptFailed, String(message.prefix(1024))) }
        let code = error["code"]?.intValue ?? ParseError.Code.scriptFailed.rawValue
        let message = error["message"]?.stringValue ?? error["error"]?.stringValue ?? "The webhook refused."
        return ParseError(ParseError.Code(code), String(message.prefix(1024)))
    }
}
