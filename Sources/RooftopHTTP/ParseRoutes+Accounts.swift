import RooftopCore
import RooftopServices

/// Sign-up, login, the current user, user updates and the account mail requests.
extension ParseRoutes {
    func signUp(_ request: ParseRequest) async throws -> ParseResponse {
        let answer = try await SignUp(accounts: accounts, origin: request.origin).signUpAnswer(
            body: request.body, installationId: request.installationId, acceptLanguage: request.acceptLanguage, principal: request.principal)
        // authData that named an existing user made this a login: 200, no Location.
        guard answer.created else { return ParseResponse(body: .object(answer.body)) }
        return ParseResponse(status: 201, body: .object(answer.body), headers: [("Location", "/users/\(answer.objectId)")])
    }

    func logIn(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(
            body: .object(
                try await LogIn(accounts: accounts, origin: request.origin).logInAnswer(
                    params: request.arguments, installationId: request.installationId)))
    }

    func me(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        // Authentication already checked this token on this request; a batch item checks again.
        return ParseResponse(body: .object(try await accounts.meAnswer(token: token, signedIn: request.tokenUser)))
    }

    func updateUser(_ request: ParseRequest) async throws -> ParseResponse {
        let answer = try await UserChanges(accounts: accounts, origin: request.origin).updateUser(
            try request.objectId(), body: request.body, principal: request.principal, installationId: request.installationId,
            acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: .object(answer))
    }

    func deleteUser(_ request: ParseRequest) async throws -> ParseResponse {
        let userId = try request.objectId()
        // With `deleteUserFiles`, read before the user goes (the files are only its to lose).
        let files = try await self.files.filesOfUser(userId)
        try await UserChanges(accounts: accounts, origin: request.origin).deleteUser(userId, principal: request.principal)
        // The user is gone whatever happens to its files: a file left over is found later by
        // `rooftop files unreferenced`.
        _ = try? await self.files.deleteUnreferenced(files)
        return ParseResponse(body: [:])
    }

    func logInAs(_ request: ParseRequest) async throws -> ParseResponse {
        let answer = try await LogIn(accounts: accounts, origin: request.origin).logInAsAnswer(
            params: request.body, principal: request.principal, installationId: request.installationId)
        return ParseResponse(body: .object(answer))
    }

    func verifyPassword(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(body: .object(try await LogIn(accounts: accounts, origin: request.origin).verifyPassword(params: request.arguments)))
    }

    func upgradeToRevocableSession(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(
            body: .object(
                try await accounts.upgradeToRevocableSession(
                    principal: request.principal, installationId: request.installationId, origin: request.origin)))
    }

    func requestPasswordReset(_ request: ParseRequest) async throws -> ParseResponse {
        try await PasswordReset(accounts: accounts, origin: request.origin).requestPasswordReset(
            body: request.body, acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: [:])
    }

    func requestVerificationEmail(_ request: ParseRequest) async throws -> ParseResponse {
        try await EmailVerification(accounts: accounts, origin: request.origin).requestVerificationEmail(
            body: request.body, acceptLanguage: request.acceptLanguage)
        return ParseResponse(body: [:])
    }

    func logOut(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        try await accounts.logOut(token: token, origin: request.origin)
        return ParseResponse(body: [:])
    }
}
