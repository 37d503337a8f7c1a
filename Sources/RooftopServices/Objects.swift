package import RooftopCore
package import RooftopStorage

/// Object use cases: create, get, query, update, delete with Parse's access rules.
package struct Objects: Sendable {
    let store: any DataStore
    let config: ServicesConfiguration
    let clock: any ServerClock
    /// Resolves users' roles; its cache is cleared on every `_Role` write.
    package let roles: RoleResolver
    /// The embedding program's triggers, run around every object write and read.
    package var triggers = TriggerRunner()
    /// The request these use cases serve: triggers are told its caller (the server's own
    /// work is `.server`). Set per request with `serving(_:)`; a trigger's `objects` keeps it,
    /// so the trigger's own writes are told the same caller.
    package private(set) var origin = RequestOrigin.server

    /// Creates the use cases over a store.
    package init(store: any DataStore, config: ServicesConfiguration, clock: any ServerClock) {
        self.store = store
        self.config = config
        self.clock = clock
        self.roles = RoleResolver(store: store, clock: clock)
    }

    /// The same use cases serving a request from `origin`.
    package func serving(_ origin: RequestOrigin) -> Objects {
        var objects = self
        objects.origin = origin
        return objects
    }

    /// Refuses classes a client may never touch through the generic routes.
    func checkClassAccess(_ className: ClassName, principal: Principal) throws(ParseError) {
        if principal.isMaster { return }
        if className.isMasterOnly || className == .session || className == .user || className == .installation {
            throw ParseError(.operationForbidden, "Clients aren't allowed to perform this operation on the \(className) collection.")
        }
    }

    /// The audit log is append-only: written by the server itself, never through the API, not
    /// even with the master key.
    static func refuseAuditWrites(_ className: ClassName) throws(ParseError) {
        if className == .audit { throw ParseError(.operationForbidden, "The audit log is written by the server only.") }
        // Classes with their own routes: a write around them would skip their rules and leave
        // every node's cache of them stale.
        if let route = serverManaged[className.rawValue] {
            throw ParseError(.operationForbidden, "\(className) is changed through \(route) only.")
        }
    }

    /// System classes the server writes through their own routes, by the route.
    static let serverManaged = ["_Hooks": "/hooks", "_GlobalConfig": "/config", "_JobStatus": "/jobs"]

    /// Refuses classes a client may never read through includes and subqueries (`_User` and
    /// `_Role` stay readable there, under their ACLs and protected fields).
    func checkReadClassAccess(_ className: ClassName, principal: Principal) throws(ParseError) {
        if principal.isMaster || className == .user || className == .role { return }
        // A signed-in user reads their own sessions, as in Parse (`ownSessionsOnly` pins it).
        if className == .session && principal.userId != nil { return }
        try checkClassAccess(className, principal: principal)
    }

    /// Account fields change only through the account routes, which hash and normalize them;
    /// a generic write (even with the master key) could store a plain password.
    static func refuseAccountFields(_ write: ObjectWrite) throws(ParseError) {
        for (path, _) in write.operations where ["password", "username", "email", "authData", "sessionToken"].contains(path.field.rawValue) {
            throw ParseError(.operationForbidden, "\(path.field) can only be set through /users.")
        }
    }

    /// Creates an object; returns its id and creation time.
    package func create(_ className: ClassName, body: [String: JSON], principal: Principal) async throws -> StoredObject {
        let outcome = try await writeOne(try await planCreate(className, body: body, principal: principal))
        guard case .inserted(let object) = outcome else { throw ParseError.internalError }
        return object
    }

    /// Checks a create and returns the write to perform (for `create` and batch transactions).
    package func planCreate(_ className: ClassName, body: [String: JSON], principal: Principal) async throws -> WriteOperation {
        try Objects.refuseAuditWrites(className)
        try checkClassAccess(className, principal: principal)
        return try await planAdmittedCreate(className, body: body, principal: principal)
    }

    /// A create whose class the caller may write, as a use case with its own rules (installations)
    /// has decided: class-level permissions, ACLs and schema rules still apply.
    func planAdmittedCreate(_ className: ClassName, body: [String: JSON], principal: Principal) async throws -> WriteOperation {
        let schema = try await store.schema(className)
        // Permission first, so a caller who may not create learns nothing of required fields,
        // and no trigger runs for a write that cannot happen.
        if let schema { _ = try AccessPolicy.check(.create, on: className, clp: schema.clp, principal: principal) }
        // The trigger's changes are checked below exactly as the client's own.
        let changes = try await beforeSave(className, objectId: nil, body: body, principal: principal)
        // Defaults join the body before it is parsed, so they are checked like any value.
        let body = try schema.map { s throws(ParseError) in try s.applyingFieldOptions(toCreate: changes) } ?? changes
        var write = try ObjectWrite(body: body, isCreate: true)
        if className == .role { try RoleRules.validate(write, isCreate: true) }
        if className == .user { try Objects.refuseAccountFields(write) }
        let objectId: String
        if let custom = write.objectId {
            guard config.allowCustomObjectId else { throw ParseError(.invalidKeyName, "objectId is an invalid field name.") }
            guard ObjectId.isPlausible(custom) else { throw ParseError(.missingObjectId, "objectId must not be empty, null or undefined") }
            objectId = custom
        } else {
            objectId = ObjectId.generate(length: config.objectIdSize)
        }
        write.objectId = nil
        if write.acl == nil, !write.clearsACL, let userId = principal.userId, config.defaultACL(for: className) == .owner {
            write.acl = ACL(readers: [userId], writers: [userId])
        }
        // `_Installation` is a system class: a device's first save creates it, as in Parse.
        let grant = SchemaGrant(
            createClass: principal.isMaster || config.allowClientClassCreation || className == .installation,
            addFields: try schema.map { s throws(ParseError) in try addFieldAllowed(s, principal) } ?? true, maxFields: config.maxFieldsPerClass)
        return .insert(className: className, objectId: objectId, at: clock.now(), write: write, grant: grant)
    }

    private func addFieldAllowed(_ schema: ClassSchema, _ principal: Principal) throws(ParseError) -> Bool {
        do {
            return try AccessPolicy.check(.addField, on: schema.className, clp: schema.clp, principal: principal) == .allowed
        } catch {
            return false
        }
    }

    /// Runs one write, translating storage errors.
    func writeOne(_ operation: WriteOperation) async throws -> WriteOutcome {
        guard let outcome = try await writeGroup([operation]).first else { throw ParseError.internalError }
        return outcome
    }

    /// Runs writes in one transaction (`storeWrite`), then the after-triggers.
    func writeGroup(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        let noTriggers = await triggers.isEmpty
        let originals = noTriggers ? [:] : try await originalsForAfterTriggers(operations)
        let outcomes = try await storeWrite(operations)
        if !noTriggers { await afterTriggers(operations, originals: originals) }
        return outcomes
    }

    /// Runs writes in one transaction, clearing the role cache on every node when a `_Role`
    /// changes, and translating storage errors: first by `translate` (a use case's own answer,
    /// such as an account's 202), then as the API does (a duplicate is 137). Runs no trigger:
    /// the API's writes run them around this, the server's own writes (`AsServer`) where Parse does.
    func storeWrite(
        _ operations: [WriteOperation], translate: AsServer.Translation? = nil
    ) async throws -> [WriteOutcome] {
        try await storeWriting(operations, translate: translate) { try await store.write(operations) }
    }

    /// Runs a group (writes, trims and exchanges) in one transaction, as `storeWrite`.
    func storeWrite(_ group: WriteGroup, translate: AsServer.Translation? = nil) async throws -> WriteGroupOutcome {
        try await storeWriting(group.operations, translate: translate) { try await store.write(group) }
    }

    private func storeWriting<T: Sendable>(
        _ operations: [WriteOperation], translate: AsServer.Translation?, _ write: () async throws -> T
    ) async throws -> T {
        do {
            let result = try await write()
            if operations.contains(where: { $0.className == .role }) {
                await roles.invalidate()
                await store.cacheBus.publish(.roles)
            }
            return result
        } catch let error as StorageError {
            if let translate, let own = try await translate(error, operations) { throw own }
            if error.duplicateField != nil { throw ParseError(.duplicateValue, "A duplicate value for a field with unique values was provided") }
            throw error
        }
    }

    /// Updates an object the caller may write; returns `updatedAt` and the results of atomic ops.
    package func update(_ className: ClassName, objectId: String, body: [String: JSON], principal: Principal) async throws -> [String: JSON] {
        let outcome = try await writeOne(try await planUpdate(className, objectId: objectId, body: body, principal: principal))
        return try Objects.response(to: outcome)
    }

    /// Checks an update and returns the write to perform.
    package func planUpdate(_ className: ClassName, objectId: String, body: [String: JSON], principal: Principal) async throws -> WriteOperation {
        try Objects.refuseAuditWrites(className)
        try checkClassAccess(className, principal: principal)
        return try await planAdmittedUpdate(className, objectId: objectId, body: body, principal: principal)
    }

    /// An update whose class the caller may write, as `planAdmittedCreate`.
    func planAdmittedUpdate(_ className: ClassName, objectId: String, body: [String: JSON], principal: Principal) async throws -> WriteOperation {
        var write = try Self.parseUpdate(className, objectId: objectId, body: body)
        guard let schema = try await store.schema(className) else { throw ParseError.objectNotFound }
        let decision = try AccessPolicy.check(.update, on: className, clp: schema.clp, principal: principal)
        // After the permission check: no trigger runs for a write that cannot happen. Its
        // changes are then checked exactly as the client's own.
        var body = body
        if await triggers.has(.beforeSave, className) {
            body = try await beforeSave(className, objectId: objectId, body: body, principal: principal)
            write = try Self.parseUpdate(className, objectId: objectId, body: body)
        }
        try schema.checkFieldOptions(update: body)
        let access = writeAccess(decision, principal)
        let grant = SchemaGrant(createClass: false, addFields: try addFieldAllowed(schema, principal), maxFields: config.maxFieldsPerClass)
        return .update(className: className, objectId: objectId, at: clock.now(), write: write, access: access, grant: grant)
    }

    /// An update's body, parsed and checked (roles, account fields, a changed objectId).
    static func parseUpdate(_ className: ClassName, objectId: String, body: [String: JSON]) throws(ParseError) -> ObjectWrite {
        var write = try ObjectWrite(body: body, isCreate: false)
        if className == .role { try RoleRules.validate(write, isCreate: false) }
        if className == .user { try Objects.refuseAccountFields(write) }
        if let id = write.objectId, id != objectId { throw ParseError(.invalidKeyName, "objectId is an invalid field name.") }
        write.objectId = nil
        return write
    }

    /// Deletes an object the caller may write.
    package func delete(_ className: ClassName, objectId: String, principal: Principal) async throws {
        _ = try await writeOne(try await planDelete(className, objectId: objectId, principal: principal))
    }

    /// Checks a delete and returns the write to perform.
    package func planDelete(_ className: ClassName, objectId: String, principal: Principal) async throws -> WriteOperation {
        try Objects.refuseAuditWrites(className)
        try checkClassAccess(className, principal: principal)
        guard let schema = try await store.schema(className) else { throw ParseError.objectNotFound }
        let decision = try AccessPolicy.check(.delete, on: className, clp: schema.clp, principal: principal)
        try await beforeDelete(className, objectId: objectId, principal: principal)
        return .delete(className: className, objectId: objectId, access: writeAccess(decision, principal))
    }

    /// Performs planned writes all-or-nothing (batch `transaction: true`).
    package func commit(_ operations: [WriteOperation]) async throws -> [WriteOutcome] {
        try await writeGroup(operations)
    }

    /// The wire answer to a write: `{objectId, createdAt}`, `{updatedAt, …echo}` or `{}`.
    package static func response(to outcome: WriteOutcome) throws -> [String: JSON] {
        switch outcome {
        case .inserted(let object): return ["objectId": .string(object.objectId), "createdAt": .string(object.createdAt.iso)]
        case .updated(let updatedAt, var echo):
            echo["updatedAt"] = .string(updatedAt.iso)
            return echo
        case .deleted: return [:]
        }
    }

    func writeAccess(_ decision: AccessPolicy.Decision, _ principal: Principal) -> Access {
        if principal.isMaster { return .master }
        var access = Access(aclGroup: principal.aclGroup, userId: principal.userId)
        if case .restricted(let fields) = decision { access.pointerRestriction = fields }
        return access
    }
}
