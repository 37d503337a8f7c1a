import JWTKit
package import RooftopCore
package import RooftopServices

/// A provider whose clients send an OpenID Connect ID token: any issuer found by discovery,
/// and Sign in with Apple and Google as presets of it.
///
/// `authData.<name>` is `{"id": <sub>, "token" | "id_token": <JWT>, "nonce"?: <nonce>}`
/// (Apple's Parse shape uses `token`, Google's `id_token`; both are accepted everywhere).
package struct OIDCProvider: AuthProvider {
    /// The `authData` key.
    package let name: String
    let verifier: IDTokenVerifier
    /// The browser flow's client: the first client id, the secret and the endpoints.
    let oauth: OAuthClient
    /// The scopes the browser flow asks for.
    let scope: String
    /// Whether the provider returns to the callback with a form POST (Apple, which does so
    /// whenever name or email are asked for).
    package let returnsByFormPost: Bool

    /// A provider from its settings; `issuers` are the accepted `iss` values.
    init(
        name: String, issuers: [String], audiences: [String], jwksURL: String?, clock: any ServerClock, http: ProviderHTTP,
        settings: ProviderSettings? = nil
    ) {
        self.name = name
        let keys = JWKSCache(issuer: issuers.first ?? "", jwksURL: jwksURL, clock: clock, http: http)
        verifier = IDTokenVerifier(provider: name, issuers: issuers, audiences: audiences, keys: keys, clock: clock)
        var secret = settings?.clientSecret.map(ClientSecret.fixed)
        if let key = settings?.appleKey, let clientId = audiences.first, let signer = AppleClientSecret(key: key, clientId: clientId, clock: clock) {
            secret = .apple(signer)
        }
        oauth = OAuthClient(
            clientId: audiences.first, clientSecret: secret, authorizationEndpoint: settings?.authorizationEndpoint,
            tokenEndpoint: settings?.tokenEndpoint, discovery: issuers.first.map { OIDCDiscovery(issuer: $0, http: http) }, http: http)
        // Apple's scopes are `name` and `email`, and asking for them makes it return with a
        // form POST (`response_mode=form_post`), which carries the name on the first sign-in.
        returnsByFormPost = settings?.kind == .apple
        scope = returnsByFormPost ? "name email" : "openid email profile"
    }

    /// Sign in with Apple (Parse's `auth.apple.clientId`: the app's bundle ids and service ids).
    static func apple(_ settings: ProviderSettings, clock: any ServerClock, http: ProviderHTTP) -> OIDCProvider {
        OIDCProvider(
            name: settings.name, issuers: [settings.issuer ?? ProviderSettings.appleIssuer], audiences: settings.clientIds,
            jwksURL: settings.jwksURL ?? (settings.issuer == nil ? ProviderSettings.appleKeys : nil), clock: clock, http: http, settings: settings)
    }

    /// Google (Parse's `auth.google.clientId`); its tokens carry the issuer with or without
    /// `https://`.
    static func google(_ settings: ProviderSettings, clock: any ServerClock, http: ProviderHTTP) -> OIDCProvider {
        let issuers = settings.issuer.map { [$0] } ?? [ProviderSettings.googleIssuer, "accounts.google.com"]
        return OIDCProvider(
            name: settings.name, issuers: issuers, audiences: settings.clientIds,
            jwksURL: settings.jwksURL ?? (settings.issuer == nil ? ProviderSettings.googleKeys : nil), clock: clock, http: http, settings: settings)
    }

    /// Any OpenID Connect provider: keys from `jwksURL` or from the issuer's discovery document.
    static func generic(_ settings: ProviderSettings, clock: any ServerClock, http: ProviderHTTP) -> OIDCProvider {
        OIDCProvider(
            name: settings.name, issuers: [settings.issuer ?? ""], audiences: settings.clientIds, jwksURL: settings.jwksURL, clock: clock,
            http: http, settings: settings)
    }

    /// Verifies the ID token against the provider and returns who it names.
    package func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity {
        let id = try ProviderInput.id(data, provider: name)
        guard let token = data["id_token"]?.stringValue ?? data["token"]?.stringValue, !token.isEmpty else {
            throw ParseError(.objectNotFound, "authData.\(name) needs an id token (token or id_token).")
        }
        let nonce: String?
        switch data["nonce"] {
        case nil, .null?: nonce = nil
        case .string(let text)?: nonce = text
        default: throw ParseError(.invalidJSON, "authData.\(name).nonce must be a string.")
        }
        let claims = try await verifier.verify(token, subject: id, nonce: nonce)
        return VerifiedIdentity(
            provider: name, subject: claims.sub.value, email: claims.email, emailVerified: claims.emailVerified?.value ?? false, name: claims.name)
    }
}

/// What every provider checks of the client's `authData` before calling anyone.
enum ProviderInput {
    /// `authData.<provider>.id`: a non-empty string of reasonable length, else 107.
    static func id(_ data: [String: JSON], provider: String) throws(ParseError) -> String {
        guard case .string(let id)? = data["id"], !id.isEmpty, id.utf8.count <= 255, !id.contains("\u{0}") else {
            throw ParseError(.invalidJSON, "authData.\(provider).id must be a string.")
        }
        return id
    }
}
