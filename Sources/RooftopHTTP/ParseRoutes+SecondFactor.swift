import RooftopCore
import RooftopServices

/// Rooftop's own second-factor routes (`/users/me/mfa…`), for the signed-in user; Parse's
/// `authData.mfa` shape goes through `PUT /users/:id` and `/login` as before.
extension ParseRoutes {
    func secondFactorStatus(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await secondFactor(request).status(userId: try signedInUser(request))))
    }

    func startSecondFactor(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await secondFactor(request).start(userId: try signedInUser(request), body: request.body)))
    }

    func confirmSecondFactor(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await secondFactor(request).confirm(userId: try signedInUser(request), body: request.body)))
    }

    func disableSecondFactor(_ request: ParseRequest) async throws -> ParseResponse {
        try await secondFactor(request).disable(userId: try signedInUser(request), body: request.body)
        return ParseResponse(body: [:])
    }

    func renewRecoveryCodes(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await secondFactor(request).renewRecoveryCodes(userId: try signedInUser(request), body: request.body)))
    }

    private func secondFactor(_ request: ParseRequest) -> SecondFactorSetup {
        SecondFactorSetup(accounts: accounts, origin: request.origin)
    }

    /// The session's user: the `/users/me/…` routes (second factor, passkeys) act on the caller's
    /// own account, never another's (the master key has no user here).
    func signedInUser(_ request: ParseRequest) throws -> String {
        guard let userId = request.principal.userId, !request.principal.isMaster else {
            throw ParseError(.invalidSessionToken, "Invalid session token")
        }
        return userId
    }
}
