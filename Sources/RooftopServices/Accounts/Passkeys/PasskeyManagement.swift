package import RooftopCore
import RooftopStorage

/// A user's passkeys, as the user (`/users/me/passkeys…`) and the console see them: listed
/// (name, created, last used, backed up), renamed, and removed — never the last way the account
/// has to sign in. Adding and removing one is audited and told to the user by mail.
package struct PasskeyManagement: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    var passkeys: Passkeys { Passkeys(accounts: accounts) }

    /// `GET /users/me/passkeys` (and the console's list): oldest first, without their keys.
    package func list(userId: String) async throws -> [[String: JSON]] {
        StoredPasskeys.of(try await passkeys.user(userId)).passkeys.items.map(\.answer)
    }

    /// `PUT /users/me/passkeys/:id`: a new name.
    package func rename(userId: String, id: String, body: [String: JSON]) async throws -> [String: JSON] {
        guard let name = try PasskeyRegistration.name(body["name"]) else { throw PasskeyRegistration.invalidName }
        let renamed = try await passkeys.update(userId) { list, _ -> StoredPasskey? in
            guard let index = list.index(of: id) else { throw Self.notFound }
            list.items[index].name = name
            return list.items[index]
        }
        guard let renamed else { throw Self.notFound }
        await accounts.audit.record(.passkeyRenamed, userId: userId, detail: name, origin: origin)
        return renamed.answer
    }

    /// `DELETE /users/me/passkeys/:id` (or the console, `by` naming the admin for the audit log).
    /// Refused (119) when it is the account's last way to sign in.
    package func remove(userId: String, id: String, by admin: String? = nil) async throws {
        let removed = try await passkeys.update(userId) { list, user -> StoredPasskey? in
            guard let index = list.index(of: id) else { throw Self.notFound }
            let others = list.items.count - 1
            guard others > 0 || Self.hasOtherWayIn(user) else {
                throw ParseError(
                    .operationForbidden,
                    "This passkey is the account's only way to sign in: set a password or add another passkey first.")
            }
            return list.items.remove(at: index)
        }
        guard let removed else { throw Self.notFound }
        await accounts.audit.record(
            .passkeyRemoved, userId: userId, detail: admin.map { "\(removed.name), by console admin \($0)" } ?? removed.name, origin: origin)
        SecurityNotices(accounts: accounts, origin: origin).notify(.passkeyRemoved(name: removed.name), userId: userId)
    }

    /// Whether `user` signs in without passkeys: a password, or a provider other than anonymous.
    package static func hasOtherWayIn(_ user: StoredObject) -> Bool {
        user.fields[InternalField.hashedPassword.rawValue] != nil
            || user.fields.keys.contains { $0.hasPrefix(FieldName.authIdPrefix) && $0 != FieldName.authIdPrefix + "anonymous" }
    }

    static let notFound = ParseError(.objectNotFound, "Passkey not found.")
}
