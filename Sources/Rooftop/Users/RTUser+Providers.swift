public import Foundation
import RooftopCore

/// Sign-in with Apple, Google, Facebook, GitHub and OpenID Connect providers: with a token the
/// app already holds (`logIn(with:)`), or through the browser (`logIn(withProvider:authenticator:)`).
extension RTUser {
    /// Logs in with a provider's token, or signs a new user up with it; the user becomes current.
    /// A user with a second factor needs its code too (unless the server's
    /// `secondFactorOnProviderSignIn` is `provider`): without it this fails with
    /// `isSecondFactorRequired`; send it again with `code`.
    @discardableResult
    public static func logIn(with credential: RTAuthCredential, code: String? = nil) async throws -> RTUser {
        let client = try RTClient.current()
        var entries: [String: JSON] = [credential.provider: credential.authData]
        if let code { entries["mfa"] = ["token": .string(code)] }
        let body: JSON = ["authData": .object(entries)]
        await client.registerDevice()
        let answer = try await client.send(APIRequest(method: "POST", path: "/users", body: body), as: nil)
        let user = try signedIn(client, answer, anonymous: false)
        if answer["authData"] == nil {
            user.merge(server: ["authData": .object([credential.provider: ["id": .string(credential.id)]])], user: user, complete: false)
        }
        return user
    }

    /// Links a provider's token to this (signed-in) user; it can then log in with it too. 208
    /// when the identity belongs to another user.
    public func link(with credential: RTAuthCredential) async throws {
        try await changeAuthData([credential.provider: credential.authData])
    }

    /// Unlinks `provider`; 119 when it is the user's last way to sign in.
    public func unlink(_ provider: String) async throws {
        try await changeAuthData([provider: .null])
    }

    /// Whether `provider` is linked to this user (as last read from the server).
    public func isLinked(with provider: String) -> Bool {
        (self["authData"] as? [String: Any])?[provider] != nil
    }

    private func changeAuthData(_ entries: [String: JSON]) async throws {
        let client = try RTClient.current()
        guard objectId != nil else { throw RTError(.otherCause, "Only a signed-up user can link or unlink providers.") }
        _ = try await client.send(APIRequest(method: "PUT", path: path, body: ["authData": .object(entries)]), as: self)
        try await refreshFromServer(client)
    }

    private func refreshFromServer(_ client: RTClient) async throws {
        let fields = try await client.send(APIRequest(method: "GET", path: "/users/me"), as: self)
        if let object = fields.objectValue { merge(server: object, user: self, complete: true) }
    }

    /// Signs in through the browser with `provider` (an authorization code with PKCE: the
    /// provider's tokens never reach the app); the user becomes current. The server's
    /// `authRedirectURIs` must allow the authenticator's redirect.
    ///
    /// For a user with a second factor, `secondFactorCode` is asked for the code (or a recovery
    /// code) once the provider has signed the user in — up to three times while codes are
    /// refused — and the same sign-in completes, without the browser again. Without it, such a
    /// user's sign-in fails with `isSecondFactorRequired`.
    ///
    /// ```swift
    /// let user = try await RTUser.logIn(withProvider: "google", authenticator: authenticator) {
    ///     try await askForCode()  // e.g. a sheet with a one-time-code field
    /// }
    /// ```
    @discardableResult
    public static func logIn(
        withProvider provider: String, authenticator: any RTWebAuthenticator, secondFactorCode: (@Sendable () async throws -> String)? = nil
    ) async throws -> RTUser {
        let client = try RTClient.current()
        let answer = try await browserSignIn(client, provider: provider, authenticator: authenticator, linking: nil, code: secondFactorCode)
        return try signedIn(client, answer, anonymous: false)
    }

    /// Links `provider` to this signed-in user through the browser. The exchange answers with a
    /// new session for this device (it replaces the one of this installation), which the user
    /// continues with; an anonymous user is converted.
    public func link(withProvider provider: String, authenticator: any RTWebAuthenticator) async throws {
        let client = try RTClient.current()
        guard client.users.token(of: self) != nil else { throw RTError(.invalidSessionToken, "This user is not signed in here.") }
        let answer = try await Self.browserSignIn(client, provider: provider, authenticator: authenticator, linking: self)
        client.users.converted(self, token: answer["sessionToken"]?.stringValue)
        try await refreshFromServer(client)
    }

    /// Start → browser → callback → `/auth/token`: the server's answer (user and session).
    /// A refused second factor asks `code` again (the server keeps the sign-in's code meanwhile).
    static func browserSignIn(
        _ client: RTClient, provider: String, authenticator: any RTWebAuthenticator, linking user: RTUser?,
        code askCode: (@Sendable () async throws -> String)? = nil
    ) async throws -> JSON {
        let verifier = PKCE.randomSecret()
        let state = PKCE.randomSecret()
        let redirect = try await authenticator.redirectURI()
        guard var start = URLComponents(string: client.configuration.server + "/auth/" + provider + "/start"),
            provider.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw RTError(.otherCause, "The server URL or the provider name is not valid.") }
        var items = [
            URLQueryItem(name: "redirect_uri", value: redirect.absoluteString),
            URLQueryItem(name: "code_challenge", value: PKCE.challenge(verifier)), URLQueryItem(name: "state", value: state),
        ]
        if let user {
            // The session goes in a header to get a one-minute, single-use code bound to this
            // flow's challenge; only that code goes into the URL the browser opens.
            let answer = try await client.send(
                APIRequest(
                    method: "POST", path: "/auth/\(provider)/link", body: ["code_challenge": .string(PKCE.challenge(verifier))]), as: user)
            guard let code = answer["linkCode"]?.stringValue else { throw RTError(.otherCause, "The server gave no link code.") }
            items.append(URLQueryItem(name: "link_code", value: code))
        }
        start.queryItems = items
        guard let url = start.url else { throw RTError(.otherCause, "The provider name is not valid.") }
        let callback = try await authenticator.authenticate(url)
        var query: [String: String] = [:]
        for item in URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? [] where query[item.name] == nil {
            query[item.name] = item.value ?? ""
        }
        guard query["state"] == state else { throw RTError(.otherCause, "The sign-in came back with another state: ignored.") }
        if let error = query["error"] {
            throw RTError(RTErrorCode(rawValue: Int(error) ?? -1), query["error_description"] ?? "The sign-in failed.")
        }
        guard let code = query["code"] else { throw RTError(.otherCause, "The sign-in came back without a code.") }
        var body: [String: JSON] = ["code": .string(code), "code_verifier": .string(verifier)]
        await client.registerDevice()
        var attempt = 0
        while true {
            // `send` throws only `RTError` (typed throws).
            let failure: RTError
            do {
                return try await client.send(APIRequest(method: "POST", path: "/auth/token", body: .object(body)), as: nil)
            } catch {
                failure = error
            }
            guard let askCode, attempt < 3, failure.isSecondFactorRequired || (attempt > 0 && failure.isInvalidSecondFactorCode) else {
                throw failure
            }
            attempt += 1
            body["authData"] = ["mfa": ["token": .string(try await askCode())]]
        }
    }
}

/// The completion-handler and blocking forms of the provider sign-in.
extension RTUser {
    /// `logIn(with:code:)`, blocking.
    @available(*, noasync, message: "use the async logIn(with:)")
    @discardableResult
    public static func logIn(with credential: RTAuthCredential, code: String? = nil) throws -> RTUser {
        try Callback.wait { try await logIn(with: credential, code: code) }
    }

    /// `logIn(with:code:)` in the background.
    public static func logInInBackground(
        with credential: RTAuthCredential, code: String? = nil, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(with: credential, code: code) }
    }

    /// `logIn(withProvider:authenticator:secondFactorCode:)`, blocking.
    @available(*, noasync, message: "use the async logIn(withProvider:authenticator:)")
    @discardableResult
    public static func logIn(
        withProvider provider: String, authenticator: any RTWebAuthenticator, secondFactorCode: (@Sendable () async throws -> String)? = nil
    ) throws -> RTUser {
        try Callback.wait { try await logIn(withProvider: provider, authenticator: authenticator, secondFactorCode: secondFactorCode) }
    }

    /// `logIn(withProvider:authenticator:)` in the background, with a completion handler
    /// (as in `loginWithFacebook { user, error in … }`).
    public static func logInInBackground(
        withProvider provider: String, authenticator: any RTWebAuthenticator, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(withProvider: provider, authenticator: authenticator) }
    }

    /// `logIn(withProvider:authenticator:secondFactorCode:)` in the background, with a completion
    /// handler. (`secondFactorCode` is required here, so a lone trailing closure stays the block.)
    public static func logInInBackground(
        withProvider provider: String, authenticator: any RTWebAuthenticator, secondFactorCode: @escaping @Sendable () async throws -> String,
        block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(withProvider: provider, authenticator: authenticator, secondFactorCode: secondFactorCode) }
    }

    /// `link(with:)` in the background.
    public func linkInBackground(with credential: RTAuthCredential, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.link(with: credential) }
    }

    /// `link(with:)`, blocking.
    @available(*, noasync, message: "use the async link(with:)")
    public func link(with credential: RTAuthCredential) throws { try Callback.wait { try await self.link(with: credential) } }

    /// `unlink(_:)` in the background.
    public func unlinkInBackground(_ provider: String, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.unlink(provider) }
    }

    /// `unlink(_:)`, blocking.
    @available(*, noasync, message: "use the async unlink(_:)")
    public func unlink(_ provider: String) throws { try Callback.wait { try await self.unlink(provider) } }
}
