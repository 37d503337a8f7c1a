package import RooftopCore
import RooftopStorage

extension Accounts {
    /// `POST /upgradeToRevocableSession`: every Rooftop session is revocable already; the
    /// caller gets a fresh one, as Parse answers.
    package func upgradeToRevocableSession(principal: Principal, installationId: String?, origin: RequestOrigin) async throws -> [String: JSON] {
        guard let userId = principal.userId, let user = try await directory.user(userId) else { throw AccountSessions.invalidToken }
        let token = try await openSession(
            for: user, action: "upgrade", provider: "password", installationId: installationId, recording: nil, origin: origin)
        return ["sessionToken": .string(token), "user": ObjectRef(className: .user, objectId: userId).pointerJSON]
    }
}
