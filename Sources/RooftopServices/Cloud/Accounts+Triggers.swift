import RooftopCore
import RooftopStorage

/// The triggers around the account use cases: a user's saves and deletes through the account
/// routes, logins, logouts and password-reset requests.
extension Accounts {
    /// Runs `_User`'s before-save on a sign-up's or update's body (Objects.beforeSave: the
    /// credentials stay out of the trigger's reach); the trigger's result passes the same
    /// checks as the client's body.
    func beforeUserSave(_ body: [String: JSON], userId: String?, principal: Principal, origin: RequestOrigin) async throws -> [String: JSON] {
        let changed = try await objects.serving(origin).beforeSave(.user, objectId: userId, body: body, principal: principal)
        if changed != body { try AccountInput.refuseDottedAccountKeys(changed) }
        return changed
    }

    /// Runs `_User`'s after-save for `userId` (its stored state, and the state before an update).
    func afterUserSave(_ userId: String, original: [String: JSON]?, principal: Principal, origin: RequestOrigin) async {
        guard await objects.triggers.has(.afterSave, .user) else { return }
        let object = (try? await objects.storedForTrigger(.user, userId, principal: .master)) ?? nil
        _ = try? await objects.serving(origin).runTrigger(
            .afterSave, .user, objectId: userId, object: object ?? [:], original: original, principal: principal)
    }

    /// The stored user for an after-trigger that needs the state before a write.
    func userBeforeWrite(_ userId: String, for kind: TriggerKind) async -> [String: JSON]? {
        guard await objects.triggers.has(kind, .user) else { return nil }
        return (try? await objects.storedForTrigger(.user, userId, principal: .master)) ?? nil
    }

    /// Runs a login trigger (`beforeLogin` may refuse: then no session is made).
    func loginTrigger(_ kind: TriggerKind, _ user: StoredObject, origin: RequestOrigin) async throws {
        guard await objects.triggers.has(kind, .user) else { return }
        _ = try await objects.serving(origin).runTrigger(
            kind, .user, objectId: user.objectId, object: AuthProviders.redacted(user.json), principal: .user(user.objectId))
    }

    /// Runs `_Session`'s after-logout for the session that ended.
    func afterLogoutTrigger(sessionId: String, userId: String, origin: RequestOrigin) async {
        guard await objects.triggers.has(.afterLogout, .session) else { return }
        let session: [String: JSON] = ["objectId": .string(sessionId), "user": ObjectRef(className: .user, objectId: userId).pointerJSON]
        _ = try? await objects.serving(origin).runTrigger(.afterLogout, .session, objectId: sessionId, object: session, principal: .user(userId))
    }
}
