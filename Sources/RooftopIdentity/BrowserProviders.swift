import JWTKit
import RooftopCore
package import RooftopServices

/// The browser flow of OpenID Connect providers (Apple, Google, any issuer): the token
/// endpoint's ID token goes through the same verifier as a client's, with the flow's nonce.
extension OIDCProvider: BrowserAuthProvider {
    /// With a client id; endpoints come from discovery unless configured.
    package var supportsBrowser: Bool { oauth.isConfigured }

    /// The authorization endpoint with `scope`, `nonce` and PKCE.
    package func authorizationURL(_ request: AuthorizationRequest) async throws -> String {
        let (authorization, _) = try await oauth.endpoints(provider: name)
        var extra = [("nonce", request.nonce)]
        if returnsByFormPost { extra.append(("response_mode", "form_post")) }
        return oauth.authorizationURL(authorization, request, scope: scope, extra: extra)
    }

    /// Exchanges the code; the answer's `id_token` must verify and carry the flow's nonce.
    package func redeem(code: String, verifier: String, redirectURI: String, nonce: String) async throws -> VerifiedIdentity {
        let (_, token) = try await oauth.endpoints(provider: name)
        let answer = try await oauth.exchange(token, code: code, verifier: verifier, redirectURI: redirectURI, provider: name)
        guard let idToken = answer["id_token"]?.stringValue, !idToken.isEmpty else {
            throw ParseError(.objectNotFound, "authData.\(name) token endpoint returned no id token.")
        }
        let claims = try await self.verifier.verify(idToken, subject: nil, nonce: nonce)
        return VerifiedIdentity(
            provider: name, subject: claims.sub.value, email: claims.email, emailVerified: claims.emailVerified?.value ?? false, name: claims.name)
    }
}

/// The browser flow of a provider that hands out access tokens (GitHub, Facebook): the token
/// from its token endpoint is checked exactly as a client's (`validate`).
protocol AccessTokenBrowserFlow: BrowserAuthProvider {
    var oauth: OAuthClient { get }
    /// What the authorization page asks for.
    var browserScope: String { get }
    /// The provider's id of the user `token` belongs to.
    func userId(_ token: String) async throws -> String
}

extension AccessTokenBrowserFlow {
    /// The provider's authorization page with PKCE.
    package func authorizationURL(_ request: AuthorizationRequest) async throws -> String {
        let (authorization, _) = try await oauth.endpoints(provider: name)
        return oauth.authorizationURL(authorization, request, scope: browserScope)
    }

    /// Exchanges the code, then checks the token like a client's.
    package func redeem(code: String, verifier: String, redirectURI: String, nonce: String) async throws -> VerifiedIdentity {
        let (_, endpoint) = try await oauth.endpoints(provider: name)
        let answer = try await oauth.exchange(endpoint, code: code, verifier: verifier, redirectURI: redirectURI, provider: name)
        guard let token = answer["access_token"]?.stringValue, !token.isEmpty else {
            throw ParseError(.objectNotFound, "authData.\(name) token endpoint returned no access token.")
        }
        return try await validate(["id": .string(try await userId(token)), "access_token": .string(token)])
    }
}

/// GitHub's browser flow (GitHub requires `clientSecret` beside `clientId`).
extension GitHubProvider: AccessTokenBrowserFlow {
    /// With `clientId` and `clientSecret`.
    package var supportsBrowser: Bool { oauth.isConfigured }
    var browserScope: String { "read:user user:email" }
}

/// Facebook Login's browser flow (`appIds`, the first being the client id, and `appSecret`).
extension FacebookProvider: AccessTokenBrowserFlow {
    /// With `appIds` and `appSecret`.
    package var supportsBrowser: Bool { oauth.isConfigured && appSecret != nil }
    var browserScope: String { "email" }
}
