package import RooftopCore
import RooftopStorage

/// The console's prefix search and user edits.
extension AccountAdministration {
    /// Above every character a key can hold after `prefix`: a key starting with `prefix` sorts
    /// in `[prefix, prefix + ceiling)` by code point (SQLite, PostgreSQL with `C` collation).
    static let prefixCeiling = "\u{10FFFF}"

    /// The `_User` query for keys of `key` (a normalized name) starting with `prefix`: a range,
    /// so the key's unique index answers it (never a scan, never a pattern).
    package static func keyPrefixQuery(_ key: InternalField, _ prefix: String) -> QueryNode {
        let path = FieldPath(field: .internal(key))
        return .and([.field(path, .compare(.gte, .string(prefix))), .field(path, .compare(.lt, .string(prefix + prefixCeiling)))])
    }

    /// Users whose normalized username or email starts with `prefix`, ordered by username, at
    /// most `limit`, leaving out `except`.
    func usersStarting(with prefix: String, limit: Int, except: Set<String>) async throws -> [StoredObject] {
        var found: [String: StoredObject] = [:]
        for key in [InternalField.usernameKey, .emailKey] {
            let users = try await accounts.directory.find(.user, Self.keyPrefixQuery(key, prefix), limit: limit)
            for user in users where !except.contains(user.objectId) {
                // A database collation other than code-point order could widen the range:
                // only real prefixes are kept.
                guard user.fields[key.rawValue]?.stringValue?.hasPrefix(prefix) == true else { continue }
                found[user.objectId] = user
            }
        }
        return found.values.sorted {
            ($0.fields[InternalField.usernameKey.rawValue]?.stringValue ?? "", $0.objectId)
                < ($1.fields[InternalField.usernameKey.rawValue]?.stringValue ?? "", $1.objectId)
        }.prefix(limit).map { $0 }
    }

    /// `PUT /users/:id` with the master key, from the console: the same checks, uniqueness,
    /// verification mail and security notices as the API; audited with the admin's name.
    package func consoleUpdateUser(_ userId: String, body: [String: JSON]) async throws {
        guard try await consoleUser(userId) != nil else { throw ParseError.objectNotFound }
        _ = try await UserChanges(accounts: accounts, origin: origin).updateUser(userId, body: body, principal: .master, installationId: nil)
        await accounts.audit.record(.adminUserUpdated, userId: userId, detail: body.keys.sorted().joined(separator: ", "), origin: origin)
    }

    /// What a find of `className` by the user `userId` answers (their roles, ACLs, CLPs and
    /// protected fields, and the class's find triggers, as their session would get), with
    /// nothing written but the audit event. Internal classes and `_Session` are refused.
    package func findAsUser(_ userId: String, className: ClassName, params: [String: JSON]) async throws -> [JSON] {
        let principal = try await viewAsPrincipal(userId, className: className)
        let results = try await accounts.objects.find(className, params: params, principal: principal).results
        await accounts.audit.record(.adminUserViewAs, userId: userId, detail: className.rawValue, origin: origin)
        return results
    }

    /// A get of `objectId` by the user `userId`, as `findAsUser`.
    package func getAsUser(_ userId: String, className: ClassName, objectId: String) async throws -> JSON {
        let principal = try await viewAsPrincipal(userId, className: className)
        let object = try await accounts.objects.get(className, objectId: objectId, params: [:], principal: principal)
        await accounts.audit.record(.adminUserViewAs, userId: userId, detail: className.rawValue + " " + objectId, origin: origin)
        return object
    }

    private func viewAsPrincipal(_ userId: String, className: ClassName) async throws -> Principal {
        guard try await consoleUser(userId) != nil else { throw ParseError.objectNotFound }
        // The user's sessions are on their page already (and a session list is no data);
        // other internal classes are refused by the find itself, as the API refuses a user.
        if className == .session { throw ParseError(.operationForbidden, "The user's sessions are listed on their page, not viewed as them.") }
        return try await accounts.objects.roles.principal(forUser: userId)
    }
}
