package import RooftopCore
import RooftopStorage

/// Where the object use cases call the embedding program's triggers. Every object write of every
/// route passes here (direct, `_method`, `/batch`, transactions, installations, handlers' own
/// writes), so a trigger cannot be gone around by choosing another route.
extension Objects {
    /// The caller as the served request describes it, acting with `principal`.
    func triggerCaller(_ principal: Principal) -> CloudCaller {
        origin.acting(as: principal).caller
    }

    /// The object as `principal` may read it (nil when it does not exist or is not readable),
    /// without running find triggers.
    func storedForTrigger(_ className: ClassName, _ objectId: String, principal: Principal) async throws -> [String: JSON]? {
        do {
            let (request, schema) = try await prepareGet(className, objectId: objectId, params: [:], principal: principal, pin: .always)
            return try await renderedGet(request, schema: schema, principal: principal).objectValue
        } catch let error as ParseError where error.code == .objectNotFound {
            return nil
        }
    }

    /// The stored object for a trigger about a change to an existing one, as the master key
    /// reads it; 101 when it does not exist or the caller may not write it (its ACL), as Parse,
    /// which loads the original with the caller's write rights: no trigger runs for someone
    /// who could not make the change. (Pointer permissions are left to the write itself.)
    func originalForTrigger(_ className: ClassName, _ objectId: String, principal: Principal) async throws -> [String: JSON] {
        guard let schema = try await store.schema(className) else { throw ParseError.objectNotFound }
        let found = try await store.find(
            FindRequest(
                className: className, query: .field(FieldPath(field: .objectId), .equals(.string(objectId))), options: FindOptions(),
                scope: AccessScope(classes: [className: .master]))
        ).first
        guard let stored = found, Self.mayWrite(stored.acl, principal) else { throw ParseError.objectNotFound }
        // The row just read, rendered as the master key reads it: no second query.
        guard let original = try await render([stored], schema: schema, options: FindOptions(), principal: .master).first?.objectValue else {
            throw ParseError.objectNotFound
        }
        return original
    }

    /// Whether `principal` is among the writers of an object with `acl` (none: public).
    static func mayWrite(_ acl: ACL?, _ principal: Principal) -> Bool {
        guard !principal.isMaster, let acl else { return true }
        return !acl.writers.isDisjoint(with: principal.aclGroup)
    }

    /// Fields a before-save never sees or sets, by class: `_User`'s credentials and linked
    /// identities go through the account rules only; an installation's identity through the
    /// installation rules (normalized and de-duplicated before the trigger runs).
    static let triggerHidden: [ClassName: Set<String>] = [
        .user: ["password", "authData", "sessionToken"],
        .installation: ["installationId", "deviceToken", "deviceType", "pushType"],
    ]

    /// The body a before-save trigger leaves (the client's own when there is none). The
    /// trigger's changes are checked afterwards exactly as the client's own.
    func beforeSave(
        _ className: ClassName, objectId: String?, body: [String: JSON], principal: Principal
    ) async throws -> [String: JSON] {
        guard await triggers.has(.beforeSave, className) else { return body }
        var original: [String: JSON]?
        if let objectId { original = try await originalForTrigger(className, objectId, principal: principal) }
        let hidden = Self.triggerHidden[className] ?? []
        func isHidden(_ key: String) -> Bool { hidden.contains(key) || hidden.contains(where: { key.hasPrefix($0 + ".") }) }
        let event = TriggerEvent(
            kind: .beforeSave, className: className, objectId: objectId, object: body.filter { !isHidden($0.key) },
            original: original?.filter { !isHidden($0.key) }, caller: triggerCaller(principal), objects: self)
        var changed = try await triggers.run(event)
        for key in changed.keys where isHidden(key) { changed[key] = nil }
        for (key, value) in body where isHidden(key) { changed[key] = value }
        return changed
    }

    /// Runs the before-delete trigger, which may refuse.
    func beforeDelete(_ className: ClassName, objectId: String, principal: Principal) async throws {
        guard await triggers.has(.beforeDelete, className) else { return }
        let object = try await originalForTrigger(className, objectId, principal: principal)
        _ = try await triggers.run(
            TriggerEvent(
                kind: .beforeDelete, className: className, objectId: objectId, object: object, caller: triggerCaller(principal), objects: self))
    }

    /// Before a write: the stored objects that after-triggers will be told about (an update's
    /// previous state, a deleted object), by class and id.
    func originalsForAfterTriggers(_ operations: [WriteOperation]) async throws -> [String: [String: JSON]] {
        var originals: [String: [String: JSON]] = [:]
        for operation in operations {
            switch operation {
            case .update(let className, let id, _, _, _, _):
                guard await triggers.has(.afterSave, className) else { continue }
                originals[className.rawValue + "/" + id] = try await storedForTrigger(className, id, principal: .master)
            case .delete(let className, let id, _):
                guard await triggers.has(.afterDelete, className) else { continue }
                originals[className.rawValue + "/" + id] = try await storedForTrigger(className, id, principal: .master)
            case .insert: continue
            }
        }
        return originals
    }

    /// After a write: each written object's after-save or after-delete trigger, in order.
    func afterTriggers(_ operations: [WriteOperation], originals: [String: [String: JSON]]) async {
        let caller = origin.caller
        for operation in operations {
            let key = operation.className.rawValue + "/" + operation.objectId
            var event: TriggerEvent
            switch operation {
            case .insert(let className, let id, _, _, _), .update(let className, let id, _, _, _, _):
                guard await triggers.has(.afterSave, className) else { continue }
                let object = (try? await storedForTrigger(className, id, principal: .master)) ?? nil
                event = TriggerEvent(
                    kind: .afterSave, className: className, objectId: id, object: object ?? [:], original: originals[key], caller: caller,
                    objects: self)
            case .delete(let className, let id, _):
                guard await triggers.has(.afterDelete, className) else { continue }
                event = TriggerEvent(
                    kind: .afterDelete, className: className, objectId: id, object: originals[key] ?? ["objectId": .string(id)], caller: caller,
                    objects: self)
            }
            _ = try? await triggers.run(event)
        }
    }

    /// Whether a find trigger must see this class's reads (they then take the rendered path).
    func hasFindTriggers(_ className: ClassName) -> Bool {
        triggers.inCode(.beforeFind, className) || triggers.inCode(.afterFind, className)
    }

    /// The query parameters a before-find trigger leaves; it may refuse the read.
    func beforeFind(_ className: ClassName, objectId: String?, params: [String: JSON], principal: Principal) async throws -> [String: JSON] {
        guard await triggers.has(.beforeFind, className) else { return params }
        return try await triggers.run(
            TriggerEvent(
                kind: .beforeFind, className: className, objectId: objectId, object: params, caller: triggerCaller(principal), objects: self))
    }

    /// Tells the after-find trigger what the caller gets; it cannot change the answer.
    func afterFind(_ className: ClassName, objectId: String?, params: [String: JSON], results: [JSON], principal: Principal) async {
        guard await triggers.has(.afterFind, className) else { return }
        var event = TriggerEvent(
            kind: .afterFind, className: className, objectId: objectId, object: params, caller: triggerCaller(principal), objects: self)
        event.results = results
        _ = try? await triggers.run(event)
    }

    /// Runs `kind` for `className` with `object` (the account use cases' triggers: logins, a
    /// user's own saves).
    package func runTrigger(
        _ kind: TriggerKind, _ className: ClassName, objectId: String?, object: [String: JSON], original: [String: JSON]? = nil,
        principal: Principal
    ) async throws -> [String: JSON] {
        guard await triggers.has(kind, className) else { return object }
        return try await triggers.run(
            TriggerEvent(
                kind: kind, className: className, objectId: objectId, object: object, original: original, caller: triggerCaller(principal),
                objects: self))
    }
}
