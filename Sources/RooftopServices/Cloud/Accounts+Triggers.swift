import RooftopCore
import RooftopStorage

/// The triggers around the account use cases: a user's saves and deletes through the account
/// routes, logins, logouts and password-reset requests.
extension Accounts {
    /// Fields a `_User` before-save never sees or sets: credentials and linked identities go
    /// through the account rules only.
    static let credentialFields: Set<String> = ["password", "authData"]

    /// Runs `_User`'s before-save on a sign-up's or update's body: the trigger sees and may
    /// change everything but the credentials, which are put back as the client sent them.
    func beforeUserSave(_ body: [String: JSON], userId: String?, principal: Principal) async throws -> [String: JSON] {
        guard await objects.triggers.has(.beforeSave, .user) else { return body }
        let original = try await userId.asyncMap { id in try await objects.originalForTrigger(.user, id, principal: principal) }
        var changed = try await objects.runTrigger(
            .beforeSave, .user, objectId: userId, object: body.filter { !Self.credentialFields.contains($0.key) }, original: original,
            principal: principal)
        for key in changed.keys where Self.credentialFields.contains(key) { changed[key] = nil }
        for key in Self.credentialFields { changed[key] = body[key] }
        return changed
    }

    /// Runs `_User`'s after-save for `userId` (its stored state, and the state before an update).
    func afterUserSave(_ userId: String, original: [String: JSON]?, principal: Principal) async {
        guard await objects.triggers.has(.afterSave, .user) else { return }
        let object = (try? await objects.storedForTrigger(.user, userId, principal: .master)) ?? nil
        _ = try? await objects.runTrigger(.afterSave, .user, objectId: userId, object: object ?? [:], original: original, principal: principal)
    }

    /// The stored user for an after-trigger that needs the state before a write.
    func userBeforeWrite(_ userId: String, for kind: TriggerKind) async -> [String: JSON]? {
        guard await objects.triggers.has(kind, .user) else { return nil }
        return (try? await objects.storedForTrigger(.user, userId, principal: .master)) ?? nil
    }

    /// Runs a login trigger (`beforeLogin` may refuse: then no session is made).
    func loginTrigger(_ kind: TriggerKind, _ user: StoredObject) async throws {
        guard await objects.triggers.has(kind, .user) else { return }
        _ = try await objects.runTrigger(
            kind, .user, objectId: user.objectId, object: AuthProviders.redacted(user.json), principal: .user(user.objectId))
    }

    /// Runs `_Session`'s after-logout for the session that ended.
    func afterLogoutTrigger(sessionId: String, userId: String) async {
        guard await objects.triggers.has(.afterLogout, .session) else { return }
        let session: [String: JSON] = ["objectId": .string(sessionId), "user": ObjectRef(className: .user, objectId: userId).pointerJSON]
        _ = try? await objects.runTrigger(.afterLogout, .session, objectId: sessionId, object: session, principal: .user(userId))
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
