import Foundation
import RooftopCore

extension RTObject {
    /// The REST path of a class: `/users`, `/roles`, … for Parse's own, else `/classes/<name>`.
    static func path(of className: String) -> String {
        switch className {
        case "_User": "/users"
        case "_Role": "/roles"
        case "_Session": "/sessions"
        case "_Installation": "/installations"
        default: "/classes/" + className
        }
    }

    /// This object's REST path (with its id once saved).
    var path: String { Self.path(of: className) + (objectId.map { "/" + $0 } ?? "") }

    /// The user whose session this object's requests carry: the user itself for a signed-in
    /// user, else the user it belongs to (bound now to the current user if it has none).
    var actingUser: RTUser? {
        if let user = self as? RTUser, user.isDeviceAccount { return user }
        if let owner = boundUser { return owner }
        let current = RTClient.currentIfInstalled?.users.activeUser
        boundUser = current
        return current
    }

    /// Saves the object: creates it, or sends its unsaved changes. Unsaved objects it points to
    /// are saved first; a new object without an ACL gets the default ACL.
    public func save() async throws {
        try await save(visiting: [])
    }

    func save(visiting: Set<ObjectIdentifier>) async throws {
        let client = try RTClient.current()
        if let installation = self as? RTInstallation { return try await installation.upsert(client) }
        if let user = self as? RTUser {
            if user.isLazy { return try await user.createAutomaticUser(client) }
            guard user.objectId != nil else {
                throw RTError(.userCanOnlyBeCreatedThroughSignUp, "New users are created with signUp(), not save().")
            }
            guard user.isAuthenticated else {
                throw RTError(
                    .userCannotBeAlteredWithoutSession, "Only a user signed in on this device can be saved; this one was read from a query.")
            }
        }
        try await prepare(client, visiting: visiting.union([ObjectIdentifier(self)]))
        let (count, body) = try pendingBody()
        if objectId != nil && count == 0 { return }
        let isNew = objectId == nil
        let answer = try await client.send(APIRequest(method: isNew ? "POST" : "PUT", path: path, body: body), as: actingUser)
        guard let fields = answer.objectValue else { throw RTError(.invalidJSON, "The server's answer to a save is not an object.") }
        applySaved(count: count, answer: fields)
        if let user = self as? RTUser, let token = fields["sessionToken"]?.stringValue { client.users.renewed(user, token: token) }
        client.users.keep(self)
    }

    /// Saves what must exist before this object can be sent: the automatic user it belongs to,
    /// new objects it points to, and the users its ACL names; then applies the default ACL.
    func prepare(_ client: RTClient, visiting: Set<ObjectIdentifier>) async throws {
        if let user = actingUser, user !== self, user.isLazy { try await user.save() }
        for file in unsavedFiles() { try await file.save() }
        for child in unsavedChildren() {
            guard !visiting.contains(ObjectIdentifier(child)) else {
                throw RTError(.otherCause, "Unsaved objects point to each other; save one of them first.")
            }
            try await child.save(visiting: visiting.union([ObjectIdentifier(child)]))
        }
        if objectId == nil, object(forKey: "ACL") == nil, !(self is RTUser), let setting = client.defaultACL {
            var acl = setting.acl
            if setting.forCurrentUser, let user = actingUser {
                if user.isLazy { try await user.save() }
                acl.setReadAccess(true, forUser: user)
                acl.setWriteAccess(true, forUser: user)
            }
            ACL = acl
        }
    }

    /// Files not uploaded yet that this object's unsaved changes refer to: they are saved first.
    func unsavedFiles() -> [RTFile] {
        var found: [RTFile] = []
        func visit(_ value: Any) {
            switch value {
            case let file as RTFile: if file.isDirty, !found.contains(where: { $0 === file }) { found.append(file) }
            case let array as [Any]: array.forEach(visit)
            case let dictionary as [String: Any]: dictionary.values.forEach(visit)
            default: break
            }
        }
        for entry in lock.withLock({ operations }) {
            switch entry.operation {
            case .set(let value): visit(value)
            case .add(let values), .addUnique(let values), .remove(let values): values.forEach(visit)
            case .relation, .delete, .increment: break
            }
        }
        return found
    }

    /// New objects and users this object's unsaved changes refer to.
    func unsavedChildren() -> [RTObject] {
        var found: [RTObject] = []
        func visit(_ value: Any) {
            switch value {
            case let object as RTObject:
                if object.objectId == nil, object !== self, !found.contains(where: { $0 === object }) { found.append(object) }
            case let acl as RTACL:
                for user in acl.unresolvedUsers where !found.contains(where: { $0 === user }) { found.append(user) }
            case let array as [Any]: array.forEach(visit)
            case let dictionary as [String: Any]: dictionary.values.forEach(visit)
            default: break
            }
        }
        let pending = lock.withLock { operations }
        for entry in pending {
            switch entry.operation {
            case .set(let value): visit(value)
            case .add(let values), .addUnique(let values), .remove(let values): values.forEach(visit)
            case .relation(let add, let remove): (add + remove).forEach(visit)
            case .delete, .increment: break
            }
        }
        return found
    }

    /// The unsaved changes as a request body, and how many there are.
    func pendingBody() throws(RTError) -> (Int, JSON) {
        let pending = lock.withLock { operations }
        var body: [String: JSON] = [:]
        for entry in pending { body[entry.key] = try entry.operation.json() }
        return (pending.count, .object(body))
    }

    /// The first `count` changes were saved: they become server data, then the answer's fields.
    func applySaved(count: Int, answer: [String: JSON]) {
        lock.withLock {
            // The password is sent, never kept: not in memory, not on disk.
            for entry in operations.prefix(count) where !(self is RTUser && entry.key == "password") {
                serverData[entry.key] = entry.operation.apply(to: serverData[entry.key])
            }
            operations.removeFirst(min(count, operations.count))
        }
        merge(server: answer, user: boundUser, complete: false)
    }

    /// Deletes the object on the server.
    public func delete() async throws {
        let client = try RTClient.current()
        guard objectId != nil else { throw RTError(.missingObjectId, "This \(className) was never saved.") }
        if let user = self as? RTUser, !user.isAuthenticated {
            throw RTError(.userCannotBeAlteredWithoutSession, "Only a user signed in on this device can be deleted.")
        }
        _ = try await client.send(APIRequest(method: "DELETE", path: path), as: actingUser)
        if let user = self as? RTUser, user.isDeviceAccount { client.users.remove(user) }
    }

    /// Loads every field from the server, replacing unsaved changes' base values.
    @discardableResult
    public func fetch() async throws -> Self {
        let client = try RTClient.current()
        guard objectId != nil else { throw RTError(.missingObjectId, "This \(className) was never saved, so it cannot be fetched.") }
        let answer = try await client.send(APIRequest(method: "GET", path: path), as: actingUser)
        guard let fields = answer.objectValue else { throw RTError(.invalidJSON, "The server's answer to a fetch is not an object.") }
        merge(server: fields, user: boundUser ?? (self as? RTUser), complete: true)
        client.users.keep(self)
        return self
    }

    /// Fetches the object unless its data is already here.
    @discardableResult
    public func fetchIfNeeded() async throws -> Self {
        if isDataAvailable, objectId != nil { return self }
        return try await fetch()
    }

    /// Reloads the object from the server (`refresh`, as apps written for Parse's SDK call it).
    public func refresh() async throws { try await fetch() }

    /// Saves `objects` in as few requests as possible (`/batch`, 50 per request). Objects that
    /// fail are reported together (code 600 when several fail); the others are saved.
    public static func saveAll(_ objects: [RTObject]) async throws {
        let client = try RTClient.current()
        var failures: [RTError] = []
        var groups: [(user: RTUser?, objects: [RTObject])] = []
        for object in objects {
            if let user = object as? RTUser, user.objectId == nil {
                throw RTError(.userCanOnlyBeCreatedThroughSignUp, "Sign users up with signUp(), not saveAll.")
            }
            try await object.prepare(client, visiting: [ObjectIdentifier(object)])
            let user = object.actingUser
            if let index = groups.firstIndex(where: { $0.user === user }) {
                groups[index].objects.append(object)
            } else {
                groups.append((user, [object]))
            }
        }
        for group in groups {
            for chunkStart in stride(from: 0, to: group.objects.count, by: 50) {
                let chunk = Array(group.objects[chunkStart..<min(chunkStart + 50, group.objects.count)])
                var requests: [JSON] = []
                var counts: [Int] = []
                for object in chunk {
                    let (count, body) = try object.pendingBody()
                    counts.append(count)
                    requests.append([
                        "method": object.objectId == nil ? "POST" : "PUT", "path": .string(client.transport.mountPath + object.path), "body": body,
                    ])
                }
                let answer = try await client.send(APIRequest(method: "POST", path: "/batch", body: ["requests": .array(requests)]), as: group.user)
                guard let results = answer.arrayValue, results.count == chunk.count else {
                    throw RTError(.invalidJSON, "The server's answer to a batch does not match its requests.")
                }
                for (index, result) in results.enumerated() {
                    if let success = result["success"]?.objectValue {
                        chunk[index].applySaved(count: counts[index], answer: success)
                    } else {
                        let code = result["error"]?["code"]?.numberValue.map { RTErrorCode(rawValue: Int($0)) } ?? .otherCause
                        failures.append(RTError(code, result["error"]?["error"]?.stringValue ?? "The save failed."))
                    }
                }
            }
        }
        if failures.count == 1, let only = failures.first { throw only }
        if failures.count > 1 {
            throw RTError(.aggregateError, "\(failures.count) objects were not saved: " + failures.map(\.message).joined(separator: "; "))
        }
    }
}
