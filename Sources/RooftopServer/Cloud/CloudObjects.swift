public import RooftopCore
import RooftopServices
import RooftopStorage

/// Whose rights a handler's read or write uses.
public enum ActingAs: Sendable {
    /// The caller's: its session's user and roles, or the public; every ACL, class-level
    /// permission and protected field applies as for the client's own request.
    case caller
    /// The master key's: no access rule applies. Say it where you mean it.
    case master
}

/// The database as a handler reaches it: the same object rules as the REST API (types, schema,
/// access), with rights the handler names on every call.
public struct CloudObjects: Sendable {
    let objects: Objects
    let caller: Principal

    init(objects: Objects, caller: Principal) {
        self.objects = objects
        self.caller = caller
    }

    /// One object in wire form; 101 when it does not exist or these rights may not read it.
    public func get(_ className: String, _ objectId: String, as rights: ActingAs) async throws -> [String: JSON] {
        let name = try ClassName(className)
        return try await acting(rights) { objects, principal in
            try await objects.get(name, objectId: objectId, params: [:], principal: principal).objectValue ?? [:]
        }
    }

    /// The objects matching `query` (Parse's `where`), in wire form.
    ///
    /// - Parameters:
    ///   - query: constraints, as a REST `where` (`["score": ["$gt": 10]]`).
    ///   - order: `score`, `-createdAt`, or several keys separated by commas.
    ///   - limit: at most this many (the server's default limit when `nil`).
    public func find(
        _ className: String, where query: [String: JSON] = [:], order: String? = nil, limit: Int? = nil, as rights: ActingAs
    ) async throws -> [[String: JSON]] {
        var params: [String: JSON] = ["where": .object(query)]
        if let order { params["order"] = .string(order) }
        if let limit { params["limit"] = .number(Double(limit)) }
        let name = try ClassName(className)
        return try await acting(rights) { [params] objects, principal in
            try await objects.find(name, params: params, principal: principal).results.compactMap(\.objectValue)
        }
    }

    /// Creates an object from REST fields (operations and Parse types allowed); its objectId.
    /// Users are created by sign-up and sessions by login, not here (119).
    public func create(_ className: String, _ fields: [String: JSON], as rights: ActingAs) async throws -> String {
        let name = try ClassName(className)
        guard name != .user, name != .session else {
            throw ParseError(.operationForbidden, "\(className) objects are created by sign-up and login, not by a handler.")
        }
        return try await acting(rights) { objects, principal in try await objects.create(name, body: fields, principal: principal).objectId }
    }

    /// Changes an object's fields (operations such as `Increment` allowed).
    public func update(_ className: String, _ objectId: String, _ fields: [String: JSON], as rights: ActingAs) async throws {
        let name = try ClassName(className)
        _ = try await acting(rights) { objects, principal in try await objects.update(name, objectId: objectId, body: fields, principal: principal) }
    }

    /// Deletes an object.
    public func delete(_ className: String, _ objectId: String, as rights: ActingAs) async throws {
        let name = try ClassName(className)
        try await acting(rights) { objects, principal in try await objects.delete(name, objectId: objectId, principal: principal) }
    }

    /// Runs `body` as the request acting with `rights`: the triggers its write runs (after-save
    /// included) are told who really wrote.
    func acting<T: Sendable>(_ rights: ActingAs, _ body: (Objects, Principal) async throws -> T) async throws -> T {
        let principal = principal(rights)
        return try await body(objects.serving(objects.origin.acting(as: principal)), principal)
    }

    func principal(_ rights: ActingAs) -> Principal {
        switch rights {
        case .caller: caller
        case .master: .master
        }
    }
}
