import Foundation
package import RooftopCore
import RooftopStorage

/// Sends a webhook's request: the fenced HTTP client (RooftopWebhooks) implements it.
package protocol WebhookTransport: Sendable {
    /// POSTs `body` (JSON) to `url` with `X-Parse-Webhook-Key: key` when set; the answer's
    /// status and body. Redirects are not followed.
    /// Throws `WebhookTimedOut` when no answer came within `timeout`.
    func post(_ url: String, body: [UInt8], key: String?, timeout: Duration) async throws -> (status: Int, body: [UInt8])
}

/// A webhook that did not answer within its time: the call fails as a handler that ran past
/// the handler time limit does (124), whichever of the two limits comes first.
package struct WebhookTimedOut: Error {
    /// Creates the error.
    package init() {}
}

/// A webhook registered through `/hooks`: a function, or a trigger of a class.
package struct Webhook: Sendable, Equatable {
    /// The function's name, for a function hook.
    package var functionName: String?
    /// The class, for a trigger hook.
    package var className: String?
    /// The trigger's kind, for a trigger hook.
    package var triggerName: String?
    /// Where Rooftop POSTs.
    package var url: String

    /// Creates a hook (or, with an empty `url`, the key of one).
    package init(functionName: String? = nil, className: String? = nil, triggerName: String? = nil, url: String) {
        self.functionName = functionName
        self.className = className
        self.triggerName = triggerName
        self.url = url
    }

    /// The hook as `/hooks` answers it.
    package var json: JSON {
        var out: [String: JSON] = ["url": .string(url)]
        if let functionName { out["functionName"] = .string(functionName) }
        if let className { out["className"] = .string(className) }
        if let triggerName { out["triggerName"] = .string(triggerName) }
        return .object(out)
    }
}

/// Settings of the outbound calls.
package struct WebhookSettings: Sendable {
    /// Sent as `X-Parse-Webhook-Key` so the receiver knows the call is Rooftop's.
    package var key: String?
    /// `host` or `host:port` entries a hook's URL may name; none: no webhook can be registered.
    package var allowedHosts: [String] = []
    /// How long one call may take.
    package var timeout: Duration = .seconds(30)

    /// Defaults: no hosts allowed.
    package init() {}
}

/// The hooks registered through `/hooks` (stored in `_Hooks`, as Parse), cached per node and
/// dropped on every node when any node changes them; and the calls to them.
package final class WebhookRegistry: Sendable {
    let objects: Objects
    let transport: (any WebhookTransport)?
    package let settings: WebhookSettings
    private let cache = BusCache<[Webhook]>()

    /// The trigger kinds a webhook may serve (Parse's hooks API accepts these).
    static let hookableTriggers: Set<TriggerKind> = [.beforeSave, .afterSave, .beforeDelete, .afterDelete]

    /// Creates the registry; without a transport, hooks can be stored but calls fail (143).
    package init(objects: Objects, transport: (any WebhookTransport)?, settings: WebhookSettings) {
        self.objects = objects
        self.transport = transport
        self.settings = settings
    }

    /// The most hooks one server holds (a `POST` beyond it is 143).
    static let maxHooks = 1000

    /// Every hook: cached while the cache bus is live (so another node's change is heard),
    /// read from the database on every call while it is not.
    package func all() async throws -> [Webhook] {
        try await cache.value(live: objects.store.cacheBus.isLive, load: load)
    }

    /// The URL of the function hook `name`; throws when the hooks cannot be read.
    package func functionURL(_ name: String) async throws -> String? {
        try await all().first { $0.functionName == name }?.url
    }

    /// The URL of the `kind` trigger hook of `className`; throws when the hooks cannot be read.
    package func triggerURL(_ kind: TriggerKind, _ className: String) async throws -> String? {
        guard Self.hookableTriggers.contains(kind) else { return nil }
        let hooks = try await all()
        guard !hooks.isEmpty else { return nil }
        return hooks.first { $0.className == className && $0.triggerName == kind.rawValue }?.url
    }

    /// A failure to read the hooks: a before-trigger's write is refused rather than let through
    /// unchecked.
    static let unreadable = ParseError(.webhookError, "The webhooks could not be read; try again.")

    /// Drops the cached hooks (another node changed them, or events were missed).
    package func invalidate() { cache.invalidate() }

    private func load() async throws -> [Webhook] {
        guard try await objects.store.schema(.hooks) != nil else { return [] }
        var options = FindOptions()
        options.limit = Self.maxHooks + 1
        let found = try await objects.store.find(
            FindRequest(className: .hooks, query: .always, options: options, scope: AccessScope(classes: [.hooks: .master])))
        return found.compactMap { object in
            guard case .string(let url)? = object.fields["url"] else { return nil }
            return Webhook(
                functionName: object.fields["functionName"]?.stringValue, className: object.fields["className"]?.stringValue,
                triggerName: object.fields["triggerName"]?.stringValue, url: url)
        }
    }
}

/// `/hooks`: registering, changing and removing hooks (Parse's rules and 143 messages).
extension WebhookRegistry {
    /// `POST /hooks/functions` or `/hooks/triggers`: a new hook; 143 when one exists already.
    package func create(_ body: [String: JSON], definedInCode: (Webhook) -> Bool) async throws -> Webhook {
        let hook = try Self.declared(body)
        try checkURL(hook.url)
        if definedInCode(hook) {
            throw ParseError(.webhookError, "\(Self.describe(hook)) is defined in the server's code; a webhook cannot replace it.")
        }
        guard try await all().count < Self.maxHooks else {
            throw ParseError(.webhookError, "This server holds at most \(Self.maxHooks) webhooks; delete one first.")
        }
        if try await !stored(matching: hook).isEmpty {
            if let name = hook.functionName { throw ParseError(.webhookError, "function name: \(name) already exists") }
            throw ParseError(.webhookError, "class \(hook.className ?? "") already has trigger \(hook.triggerName ?? "")")
        }
        try await save(hook)
        return hook
    }

    /// `PUT /hooks/functions/:name` or `/hooks/triggers/:className/:triggerName` with a new
    /// `url`; 143 when there is no such hook.
    package func update(_ key: Webhook, body: [String: JSON]) async throws -> Webhook {
        guard case .string(let url)? = body["url"] else { throw ParseError(.webhookError, "invalid hook declaration") }
        var hook = key
        hook.url = url
        try checkURL(url)
        let ids = try await stored(matching: key)
        guard !ids.isEmpty else { throw Self.missing(key) }
        try await save(hook, replacing: ids)
        return hook
    }

    /// `DELETE` (or `PUT` with `{"__op":"Delete"}`) of a hook; 143 when there is none.
    package func delete(_ key: Webhook) async throws {
        // Every copy: two registrations that raced would otherwise leave one behind.
        let ids = try await stored(matching: key)
        guard !ids.isEmpty else { throw Self.missing(key) }
        _ = try await objects.store.write(ids.map { .delete(className: .hooks, objectId: $0, access: .master) })
        await changed()
    }

    /// One hook by key; 143 when there is none.
    package func find(_ key: Webhook) async throws -> Webhook {
        guard let hook = try await all().first(where: { Self.sameTarget($0, key) }) else { throw Self.missing(key) }
        return hook
    }

    static func missing(_ key: Webhook) -> ParseError {
        if let name = key.functionName { return ParseError(.webhookError, "no function named: \(ClassName.printable(name)) is defined") }
        return ParseError(.webhookError, "class \(ClassName.printable(key.className ?? "")) does not exist")
    }

    static func describe(_ hook: Webhook) -> String {
        if let name = hook.functionName { return "function \(name)" }
        return "\(hook.triggerName ?? "") of \(hook.className ?? "")"
    }

    static func sameTarget(_ a: Webhook, _ b: Webhook) -> Bool {
        a.functionName == b.functionName && a.className == b.className && a.triggerName == b.triggerName
    }

    /// A hook from a `POST` body: a function name, or a class and a trigger Rooftop can hook.
    static func declared(_ body: [String: JSON]) throws(ParseError) -> Webhook {
        let invalid = ParseError(.webhookError, "invalid hook declaration")
        guard case .string(let url)? = body["url"] else { throw invalid }
        if case .string(let name)? = body["functionName"] {
            guard body["className"] == nil, body["triggerName"] == nil else { throw invalid }
            try checkName(name)
            return Webhook(functionName: name, url: url)
        }
        guard case .string(let className)? = body["className"], case .string(let triggerName)? = body["triggerName"] else { throw invalid }
        _ = try ClassName(className)
        // Sessions are written by the account use cases, never through the object path where
        // save and delete triggers run: a hook there would be accepted and never called.
        if className == ClassName.session.rawValue {
            throw ParseError(.webhookError, "Only the afterLogout trigger is allowed for the _Session class.")
        }
        guard let kind = TriggerKind(rawValue: triggerName), hookableTriggers.contains(kind) else {
            throw ParseError(.webhookError, "invalid hook declaration: a webhook serves beforeSave, afterSave, beforeDelete or afterDelete")
        }
        return Webhook(className: className, triggerName: triggerName, url: url)
    }

    /// A function name: 1 to 128 printable characters.
    static func checkName(_ name: String) throws(ParseError) {
        guard !name.isEmpty, name.count <= 128, name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw ParseError(.webhookError, "invalid hook declaration: a function name is 1 to 128 printable characters")
        }
    }

    /// An `http(s)` URL on a host of `allowedHosts`: Rooftop calls no other address.
    func checkURL(_ url: String) throws(ParseError) {
        guard url.utf8.count <= 2048, let (scheme, authority) = Self.schemeAndAuthority(url), scheme == "http" || scheme == "https" else {
            throw ParseError(.webhookError, "A webhook's url must be an http or https URL.")
        }
        // `[::1]:8080` → `[::1]`; `host:8080` → `host`.
        let host =
            authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }) + "]" : authority.split(separator: ":").first.map(String.init) ?? authority
        guard settings.allowedHosts.contains(where: { $0.lowercased() == authority || $0.lowercased() == host }) else {
            throw ParseError(
                .webhookError,
                "\(ClassName.printable(authority)) is not in this server's webhookHosts; Rooftop calls only the hosts its operator allowed.")
        }
    }

    /// `https://host:port/path` → ("https", "host:port"), lower-cased; nil for anything else
    /// (user info, no host).
    static func schemeAndAuthority(_ url: String) -> (String, String)? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains(where: { $0.isWhitespace }) else { return nil }
        return (scheme, authority)
    }

    private func stored(matching key: Webhook) async throws -> [String] {
        guard try await objects.store.schema(.hooks) != nil else { return [] }
        var conditions: [QueryNode] = []
        for (field, value) in [("functionName", key.functionName), ("className", key.className), ("triggerName", key.triggerName)] {
            let path = FieldPath(field: try FieldName(field))
            conditions.append(value.map { .field(path, .equals(.string($0))) } ?? .field(path, .exists(false)))
        }
        var options = FindOptions()
        options.limit = 100
        let found = try await objects.store.find(
            FindRequest(className: .hooks, query: .and(conditions), options: options, scope: AccessScope(classes: [.hooks: .master])))
        return found.map(\.objectId)
    }

    private func save(_ hook: Webhook, replacing ids: [String] = []) async throws {
        let grant = SchemaGrant(createClass: true, addFields: true)
        guard case .object(var fields) = hook.json else { return }
        if !ids.isEmpty {
            let write = try ObjectWrite(body: ["url": .string(hook.url)], isCreate: false)
            _ = try await objects.store.write(
                ids.map { .update(className: .hooks, objectId: $0, at: objects.clock.now(), write: write, access: .master, grant: grant) })
        } else {
            fields["ACL"] = [:]
            let write = try ObjectWrite(body: fields, isCreate: true)
            _ = try await objects.store.write([
                .insert(className: .hooks, objectId: ObjectId.generate(length: 10), at: objects.clock.now(), write: write, grant: grant)
            ])
        }
        await changed()
    }

    private func changed() async {
        invalidate()
        await objects.store.cacheBus.publish(.hooks)
    }
}
