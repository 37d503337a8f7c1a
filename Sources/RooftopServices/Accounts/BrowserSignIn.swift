import Foundation
package import RooftopCore
import RooftopStorage

/// The browser sign-in (`/auth/:provider/start`, `/auth/:provider/callback`, `/auth/token`): an
/// OAuth 2.0 authorization code with PKCE between this server and the provider, then a
/// single-use code, bound to the app's own PKCE verifier, between this server and the app.
///
/// Pending flows and app codes live in the database (`OneTimeStore`) under the digest of their
/// secret, and are taken with one `DELETE … RETURNING`: a replay finds nothing. Expiry is on the
/// server's clock. No token ever travels in a URL to the app; nothing is created on a failure.
package struct BrowserSignIn: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// How long a person has to sign in at the provider (ms).
    static let browserFlowLifetime: Int64 = 600_000
    /// How long an app code works (ms): the app redeems it at once.
    static let appCodeLifetime: Int64 = 60_000

    /// What `/auth/:provider/callback` does.
    package enum BrowserCallbackOutcome: Sendable, Equatable {
        /// Back to the app at this URL, which carries `code` (and the app's `state`), or
        /// `error` (a Parse code) and `error_description`.
        case redirect(String)
        /// No flow to return to (no, unknown, expired or replayed `state`): the hosted error page.
        case failed(ParseError)
    }

    /// `GET /auth/:provider/start`: the provider's authorization URL for a new flow. The app's
    /// `redirectURI` must be on `authRedirectURIs`; `codeChallenge` is S256 of the app's
    /// verifier; `linkCode` (from `issueLinkCode`) links the identity to that user instead of
    /// signing in. A session token in the URL (`link`, as before) is refused: it would sit in
    /// browser history and logs. `callback` is this server's callback URL for the provider.
    package func startBrowserSignIn(
        provider name: String, callback: String, redirectURI: String?, codeChallenge: String?, appState: String?, linkCode: String?,
        sessionInURL: Bool = false
    ) async throws -> String {
        let provider = try accounts.identities.providers.browserProvider(name)
        guard let redirectURI, Self.isAllowedRedirect(redirectURI, allowList: accounts.config.authRedirectURIs) else {
            throw ParseError(.invalidJSON, "redirect_uri is not on this server's authRedirectURIs.")
        }
        guard let codeChallenge, Self.isPKCEValue(codeChallenge, length: 43...43) else {
            throw ParseError(.invalidJSON, "code_challenge must be the S256 challenge of the app's code verifier (43 characters).")
        }
        if let appState, appState.utf8.count > 512 || appState.contains("\u{0}") {
            throw ParseError(.invalidJSON, "state must be at most 512 bytes.")
        }
        if sessionInURL {
            throw ParseError(
                .invalidSessionToken, "A session token is not accepted in the start URL: get a link code from POST /auth/\(name)/link.")
        }
        var linkUser: String?
        if let linkCode { linkUser = try await takeLinkCode(linkCode, provider: name, challenge: codeChallenge) }
        let state = accounts.tokens.newSecret()
        let nonce = accounts.tokens.newSecret()
        let verifier = accounts.tokens.newSecret()
        var flow: [String: JSON] = [
            "provider": .string(name), "verifier": .string(verifier), "nonce": .string(nonce), "redirectURI": .string(redirectURI),
            "challenge": .string(codeChallenge), "callback": .string(callback),
        ]
        flow["appState"] = appState.map(JSON.string)
        flow["link"] = linkUser.map(JSON.string)
        let url = try await provider.authorizationURL(
            AuthorizationRequest(redirectURI: callback, state: state, nonce: nonce, codeChallenge: accounts.tokens.pkceChallenge(verifier)))
        try await accounts.server.store.putOneTime(
            key: "flow:" + accounts.tokens.digest(state), value: String(decoding: JSONWriter.bytes(.object(flow)), as: UTF8.self),
            expiresAt: accounts.objects.clock.now().millisecondsSince1970 + Self.browserFlowLifetime)
        return url
    }

    /// `GET /auth/:provider/callback` (or its `POST`, `formPost`, for a provider that returns
    /// with `response_mode=form_post`): takes the flow named by `state` (once), exchanges the
    /// provider's code and validates the identity, and sends the app a code for it. A callback
    /// in the other method than the provider's is refused before any flow is touched.
    package func finishBrowserSignIn(provider name: String, query: [String: String], formPost: Bool = false) async throws
        -> BrowserCallbackOutcome
    {
        let expired = ParseError(.objectNotFound, "This sign-in has expired or was already used. Start again from the app.")
        // Neither an unknown provider nor the other method touches a flow: whoever knows a
        // `state` can't spend it through a callback its provider never uses.
        guard let browser = try? accounts.identities.providers.browserProvider(name) else { return .failed(expired) }
        if browser.returnsByFormPost != formPost {
            return .failed(ParseError(.invalidJSON, "This provider does not return here this way. Start again from the app."))
        }
        guard let state = query["state"], !state.isEmpty, state.utf8.count <= 512 else { return .failed(expired) }
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard let text = try await accounts.server.store.takeOneTime(key: "flow:" + accounts.tokens.digest(state), now: now),
            case .object(let flow)? = try? JSONParser.parse(Array(text.utf8)),
            let redirectURI = flow["redirectURI"]?.stringValue, let challenge = flow["challenge"]?.stringValue,
            let verifier = flow["verifier"]?.stringValue, let nonce = flow["nonce"]?.stringValue, let callback = flow["callback"]?.stringValue
        else { return .failed(expired) }
        let appState = flow["appState"]?.stringValue
        guard flow["provider"]?.stringValue == name else { return .failed(expired) }
        do {
            if query["error"] != nil { throw ParseError(.objectNotFound, "The sign-in was cancelled or refused at the provider.") }
            guard let code = query["code"], !code.isEmpty, code.utf8.count <= 2048 else {
                throw ParseError(.objectNotFound, "The provider sent no authorization code.")
            }
            var identity: VerifiedIdentity
            do {
                identity = try await browser.redeem(code: code, verifier: verifier, redirectURI: callback, nonce: nonce)
                guard identity.provider == name, !identity.subject.isEmpty else { throw ParseError.internalError }
            } catch let error as ParseError where error.code == .objectNotFound {
                await accounts.audit.record(.loginFailed, userId: nil, reason: "provider token refused", detail: name, origin: origin)
                throw error
            }
            if formPost, identity.name == nil { identity.name = Self.formPostName(query["user"]) }
            // Found, created or linked only when the app redeems its code: a flow that fails
            // after this point leaves nothing behind. A taken identity is refused here already.
            let link = flow["link"]?.stringValue
            if let link, let owner = try await accounts.directory.user(linkedTo: [(name, identity.subject, .null)]), owner.objectId != link {
                throw ParseError(ParseError.Code.accountAlreadyLinked, "this auth is already used")
            }
            let appCode = accounts.tokens.newSecret()
            let until = accounts.objects.clock.now().millisecondsSince1970 + Self.appCodeLifetime
            var record: [String: JSON] = ["identity": Self.encode(identity), "challenge": .string(challenge), "until": .number(Double(until))]
            record["link"] = link.map(JSON.string)
            try await accounts.server.store.putOneTime(
                key: "code:" + accounts.tokens.digest(appCode), value: String(decoding: JSONWriter.bytes(.object(record)), as: UTF8.self),
                expiresAt: until)
            return .redirect(Self.appending(redirectURI, [("code", appCode), ("state", appState)]))
        } catch let error as ParseError {
            return .redirect(
                Self.appending(redirectURI, [("error", String(error.code.rawValue)), ("error_description", error.message), ("state", appState)]))
        }
    }

    /// `POST /auth/token`: the app's code and PKCE verifier for a session: the identity signs
    /// the user in or up (or is linked to the user who started the flow); the user with its
    /// `sessionToken`, as `/login` answers. A code works once, for a minute, and only with the
    /// verifier whose challenge started the flow (a wrong verifier uses it up too).
    package func redeemBrowserCode(body: [String: JSON], installationId: String?) async throws -> [String: JSON] {
        let invalid = ParseError(.objectNotFound, "The code is invalid, expired or already used.")
        guard case .string(let code)? = body["code"], Self.isPKCEValue(code, length: 43...43) else { throw invalid }
        guard case .string(let verifier)? = body["code_verifier"], Self.isPKCEValue(verifier, length: 43...128) else {
            throw ParseError(.invalidJSON, "code_verifier must be the app's PKCE verifier (43 to 128 characters).")
        }
        let now = accounts.objects.clock.now().millisecondsSince1970
        let key = "code:" + accounts.tokens.digest(code)
        guard let text = try await accounts.server.store.takeOneTime(key: key, now: now),
            case .object(let record)? = try? JSONParser.parse(Array(text.utf8)), let identity = record["identity"].flatMap(Self.decode),
            let challenge = record["challenge"]?.stringValue
        else { throw invalid }
        guard accounts.tokens.pkceChallenge(verifier) == challenge else { throw invalid }
        if let link = record["link"]?.stringValue {
            let principal = try await accounts.objects.roles.principal(forUser: link)
            _ = try await UserChanges(accounts: accounts, origin: origin).updateUser(
                link, body: ["authData": .object([identity.provider: .object([:])])], principal: principal, installationId: nil,
                verified: identity)
            guard let user = try await accounts.directory.user(link) else { throw invalid }
            try await accounts.loginTrigger(.beforeLogin, user, origin: origin)
            let token = try await accounts.openSession(
                for: user, action: "login", provider: identity.provider, installationId: installationId, recording: .login,
                detail: identity.provider, origin: origin)
            try await accounts.loginTrigger(.afterLogin, user, origin: origin)
            return Accounts.withToken(user.json, token)
        }
        // A user with a second factor sends its code with the redemption (`authData.mfa`); one
        // that is missing or wrong puts the code back, so the app can ask for it and try again
        // (the wrong codes count towards the factor's limit; the code still works once).
        let mfa = body["authData"]?["mfa"]
        do {
            let result = try await SignUp(accounts: accounts, origin: origin).signUp(
                body: mfa.map { ["authData": ["mfa": $0]] } ?? [:], installationId: installationId, verified: [identity], principal: .anonymous)
            guard let token = result.sessionToken else { throw Accounts.emailNotVerified }
            return Accounts.withToken(result.user.json, token)
        } catch let error as ParseError where error == SecondFactor.missing || error == SecondFactor.invalid {
            if let until = record["until"]?.numberValue, Int64(until) > accounts.objects.clock.now().millisecondsSince1970 {
                try await accounts.server.store.putOneTime(key: key, value: text, expiresAt: Int64(until))
            }
            throw error
        }
    }

    /// The name in Apple's form post (`user`, on the first sign-in only):
    /// `{"name":{"firstName","lastName"},"email"}`. Not signed, so only a display name is taken
    /// from it (bounded, no control characters); the email comes from the ID token alone.
    static func formPostName(_ user: String?) -> String? {
        guard let user, user.utf8.count <= 4096, case .object(let fields)? = try? JSONParser.parse(Array(user.utf8)),
            case .object(let name)? = fields["name"]
        else { return nil }
        let parts = [name["firstName"], name["lastName"]].compactMap { part -> String? in
            guard case .string(let text)? = part, text.count <= 100,
                !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                return nil
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// An identity as the app code's record keeps it (what the provider vouched for, no token).
    static func encode(_ identity: VerifiedIdentity) -> JSON {
        var fields: [String: JSON] = [
            "provider": .string(identity.provider), "subject": .string(identity.subject), "emailVerified": .bool(identity.emailVerified),
        ]
        fields["email"] = identity.email.map(JSON.string)
        fields["name"] = identity.name.map(JSON.string)
        return .object(fields)
    }

    static func decode(_ json: JSON) -> VerifiedIdentity? {
        guard let provider = json["provider"]?.stringValue, let subject = json["subject"]?.stringValue else { return nil }
        return VerifiedIdentity(
            provider: provider, subject: subject, email: json["email"]?.stringValue, emailVerified: json["emailVerified"] == .bool(true),
            name: json["name"]?.stringValue)
    }

    /// Whether `uri` may receive the app code: on `allowList` exactly, or a loopback
    /// `http://127.0.0.1` / `http://[::1]` entry with any port (RFC 8252 §7.3). Never a
    /// fragment, user info or `localhost`.
    static func isAllowedRedirect(_ uri: String, allowList: [String]) -> Bool {
        guard uri.utf8.count <= 2048, !uri.contains("#"), !uri.contains(where: { $0.isWhitespace || $0 == "\u{0}" }),
            let url = URLComponents(string: uri), url.scheme != nil, url.user == nil, url.password == nil
        else { return false }
        if allowList.contains(uri) { return true }
        guard url.scheme == "http", let host = url.host, ["127.0.0.1", "::1", "[::1]"].contains(host) else { return false }
        return allowList.contains { entry in
            guard let allowed = URLComponents(string: entry), allowed.scheme == "http", allowed.host == host else { return false }
            return allowed.path == url.path && allowed.query == url.query && allowed.user == nil
        }
    }

    /// PKCE's alphabet (`A-Z a-z 0-9 - . _ ~`) and a length in `length`.
    static func isPKCEValue(_ text: String, length: ClosedRange<Int>) -> Bool {
        length.contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
                    || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }

    /// `uri` with `parameters` (nil values left out) added to its query.
    static func appending(_ uri: String, _ parameters: [(String, String?)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = parameters.compactMap { name, value in
            value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
        }.joined(separator: "&")
        return uri + (uri.contains("?") ? "&" : "?") + query
    }
}

/// Linking a provider through the browser without the session in a URL: the signed-in app
/// trades its session (in a header) for a single-use link code bound to its PKCE challenge,
/// and the start URL carries only that code (`docs/providers.md`, `docs/security.md`).
extension BrowserSignIn {
    /// How long a link start code works (ms): the app opens the start URL at once.
    static let linkCodeLifetime: Int64 = 60_000

    /// `POST /auth/:provider/link` (with the session in the header): a single-use start code,
    /// valid for a minute, that makes the browser flow started with `code_challenge` link the
    /// identity to this user. The session token itself never goes into a URL; the code is bound
    /// to the app's challenge, so whoever sees the start URL can't finish the link elsewhere.
    package func issueLinkCode(provider name: String, sessionToken: String, body: [String: JSON]) async throws -> [String: JSON] {
        _ = try accounts.identities.providers.browserProvider(name)
        guard let userId = try await accounts.principal(forToken: sessionToken).userId else { throw AccountSessions.invalidToken }
        guard case .string(let challenge)? = body["code_challenge"], Self.isPKCEValue(challenge, length: 43...43) else {
            throw ParseError(.invalidJSON, "code_challenge must be the S256 challenge of the app's code verifier (43 characters).")
        }
        let code = accounts.tokens.newSecret()
        let record: JSON = ["user": .string(userId), "provider": .string(name), "challenge": .string(challenge)]
        try await accounts.server.store.putOneTime(
            key: "link:" + accounts.tokens.digest(code), value: String(decoding: JSONWriter.bytes(record), as: UTF8.self),
            expiresAt: accounts.objects.clock.now().millisecondsSince1970 + Self.linkCodeLifetime)
        return ["linkCode": .string(code), "expiresIn": .number(Double(Self.linkCodeLifetime / 1000))]
    }

    /// The user a link start code names: taken once, for this provider and this challenge.
    func takeLinkCode(_ code: String, provider name: String, challenge: String) async throws -> String {
        let invalid = ParseError(.invalidSessionToken, "The link code is invalid, expired or already used. Start the link again from the app.")
        guard Self.isPKCEValue(code, length: 43...43) else { throw invalid }
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard let text = try await accounts.server.store.takeOneTime(key: "link:" + accounts.tokens.digest(code), now: now),
            case .object(let record)? = try? JSONParser.parse(Array(text.utf8)), let userId = record["user"]?.stringValue,
            record["provider"]?.stringValue == name, record["challenge"]?.stringValue == challenge
        else { throw invalid }
        guard try await accounts.directory.user(userId) != nil else { throw invalid }
        return userId
    }
}
