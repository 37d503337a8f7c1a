import RooftopCore
import RooftopStorage

/// The third-party identities (`authData`) a user signs in with: checking one with its
/// provider, and linking or unlinking them on a user.
struct LinkedIdentities: Sendable {
    /// The enabled providers, `anonymous` among them when allowed.
    let providers: AuthProviders
    /// Finds the user an identity is already linked to.
    let directory: UserDirectory
    /// Records identities a provider refused.
    let audit: AuditLog

    /// The identity `authData.<name>` proves: 252 for a provider that isn't enabled, 107 for a
    /// shape that isn't an object, the provider's own answer (101 for a token that doesn't
    /// validate, recorded as a failed login) otherwise. Nothing is written here.
    func verify(_ name: String, _ data: JSON, origin: RequestOrigin) async throws -> VerifiedIdentity {
        let provider = try providers.provider(name)
        guard case .object(let members) = data else { throw ParseError(.invalidJSON, "authData.\(name) must be an object.") }
        do {
            let identity = try await provider.validate(members)
            guard identity.provider == name, !identity.subject.isEmpty else { throw ParseError.internalError }
            return identity
        } catch let error as ParseError where error.code == .objectNotFound {
            await audit.record(.loginFailed, userId: nil, reason: "provider token refused", detail: name, origin: origin)
            throw error
        }
    }

    /// Links (`{"p":{…}}`) or unlinks (`{"p":null}`) providers on `userId`; `authData: null` is
    /// 252. An identity already linked to another user is 208 before anything is written.
    /// Linking a real provider ends an anonymous user's device id (the account is converted,
    /// as a password converts it). Unlinking the last way to sign in (no password, no other
    /// provider) is 119, unless the master key asks.
    /// A `verified` identity (the browser sign-in's) is used as is for its provider.
    func apply(
        _ authData: JSON, to write: inout ObjectWrite, userId: String, principal: Principal, settingPassword: Bool,
        verified: VerifiedIdentity? = nil, origin: RequestOrigin
    ) async throws {
        guard case .object(let entries) = authData else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
        let field = try FieldName("authData")
        let current = try await directory.user(userId)
        var linked = Set(Self.providers(of: current))
        var linkedReal = false
        for (name, data) in entries.sorted(by: { $0.key < $1.key }) {
            guard FieldName.isIdentifier(name) else { throw ParseError(.unsupportedService, "This authentication method is unsupported.") }
            if data == .null {
                write.operations.append((FieldPath(field: field, subkeys: [name]), .delete))
                write.operations.append((FieldPath(field: AuthProviders.idField(name)), .delete))
                linked.remove(name)
                continue
            }
            if verified?.provider != name, principal.userId == userId, try Self.isUnchanged(name, data, current, providers) {
                continue
            }
            let identity = if let verified, verified.provider == name { verified } else { try await verify(name, data, origin: origin) }
            if let owner = try await directory.user(linkedTo: [(name, identity.subject, .null)]), owner.objectId != userId {
                throw ParseError(ParseError.Code.accountAlreadyLinked, "this auth is already used")
            }
            write.operations.append((FieldPath(field: field, subkeys: [name]), .set(AuthProviders.storedData(identity))))
            write.operations.append((FieldPath(field: AuthProviders.idField(name)), .set(.string(identity.subject))))
            linked.insert(name)
            if name != "anonymous" { linkedReal = true }
        }
        if linkedReal, entries["anonymous"] == nil, linked.contains("anonymous") {
            write.operations.append((FieldPath(field: field, subkeys: ["anonymous"]), .delete))
            write.operations.append((FieldPath(field: AuthProviders.idField("anonymous")), .delete))
            linked.remove("anonymous")
        }
        let hasPassword = settingPassword || current?.fields[InternalField.hashedPassword.rawValue] != nil
        if !principal.isMaster, linked.isEmpty, !hasPassword {
            throw ParseError(
                .operationForbidden, "This would leave the account with no way to sign in: set a password or link another provider first.")
        }
    }

    /// Whether a user updating itself re-sends the identity it already has (Parse skips
    /// re-validating it): an enabled provider, an object whose `id` is the string stored for
    /// this user. Such an entry is neither checked with the provider nor written: what is stored
    /// stays as the provider vouched for it, so an expired token the client still holds does not
    /// fail the update, and nothing unverified gets in. Master-key updates and logins always
    /// validate.
    static func isUnchanged(_ name: String, _ data: JSON, _ user: StoredObject?, _ providers: AuthProviders) throws(ParseError)
        -> Bool
    {
        _ = try providers.provider(name)
        guard case .object(let members) = data, case .string(let id)? = members["id"], !id.isEmpty,
            case .string(let stored)? = user?.fields[AuthProviders.idField(name).rawValue]
        else { return false }
        return id == stored
    }

    /// The providers linked to `user` (its internal identity fields).
    static func providers(of user: StoredObject?) -> [String] {
        guard let user else { return [] }
        return user.fields.keys.compactMap { key in
            key.hasPrefix(FieldName.authIdPrefix) ? String(key.dropFirst(FieldName.authIdPrefix.count)) : nil
        }.sorted()
    }
}
