import Foundation
import RooftopCore
import RooftopServices

/// One provider's OAuth 2.0 client for the browser flow: its client id and secret and the
/// authorization and token endpoints (configured, or from OpenID Connect discovery).
struct OAuthClient: Sendable {
    /// The client id sent to the provider (the first configured one).
    let clientId: String?
    /// Sent to the token endpoint when configured (`client_secret_post`).
    let clientSecret: ClientSecret?
    let authorizationEndpoint: String?
    let tokenEndpoint: String?
    /// Where missing endpoints come from, for OpenID Connect providers.
    let discovery: OIDCDiscovery?
    /// The client the token endpoint is called with.
    let http: ProviderHTTP
    /// Whether the token endpoint is read with GET and a query string (Facebook's Graph API)
    /// rather than POSTed a form.
    var getsToken = false

    /// Whether the browser flow can run: a client id, and endpoints configured or discoverable.
    var isConfigured: Bool {
        guard let clientId, !clientId.isEmpty else { return false }
        return discovery != nil || (authorizationEndpoint != nil && tokenEndpoint != nil)
    }

    /// The authorization and token endpoints; 101 when the provider can't be reached.
    func endpoints(provider: String) async throws(ParseError) -> (authorization: String, token: String) {
        if let authorizationEndpoint, let tokenEndpoint { return (authorizationEndpoint, tokenEndpoint) }
        guard let discovery, let found = try? await discovery.endpoints() else {
            throw ParseError(.objectNotFound, "authData.\(provider) could not be validated: the provider is unreachable.")
        }
        return (authorizationEndpoint ?? found.authorization, tokenEndpoint ?? found.token)
    }

    /// `endpoint` with the authorization request's parameters.
    func authorizationURL(_ endpoint: String, _ request: AuthorizationRequest, scope: String?, extra: [(String, String)] = []) -> String {
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientId ?? ""), ("redirect_uri", request.redirectURI), ("state", request.state),
            ("code_challenge", request.codeChallenge), ("code_challenge_method", "S256"),
        ]
        if let scope { parameters.append(("scope", scope)) }
        parameters += extra
        let query = parameters.map { "\($0)=\(FacebookProvider.queryEncoded($1))" }.joined(separator: "&")
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    /// The token endpoint's answer to the code (`authorization_code` grant with the PKCE
    /// verifier); 101 when it refuses or can't be reached. Never logs the code or the answer.
    func exchange(_ endpoint: String, code: String, verifier: String, redirectURI: String, provider: String) async throws(ParseError) -> JSON {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("client_id", clientId ?? ""),
            ("code_verifier", verifier),
        ]
        if let clientSecret { form.append(("client_secret", try await clientSecret.value())) }
        let answer: ProviderHTTP.Answer
        do {
            if getsToken {
                let query = form.map { "\($0)=\(FacebookProvider.queryEncoded($1))" }.joined(separator: "&")
                answer = try await http.get(endpoint + (endpoint.contains("?") ? "&" : "?") + query)
            } else {
                answer = try await http.postForm(endpoint, form)
            }
        } catch {
            throw ParseError(.objectNotFound, "authData.\(provider) could not be validated: the provider is unreachable.")
        }
        guard answer.status == 200, answer.json["error"] == nil else {
            throw ParseError(.objectNotFound, "authData.\(provider) authorization code was refused by the provider.")
        }
        return answer.json
    }
}

/// An issuer's discovery document, fetched once it is needed and kept once it is good.
actor OIDCDiscovery {
    let issuer: String
    let http: ProviderHTTP
    private var found: (authorization: String, token: String)?

    init(issuer: String, http: ProviderHTTP) {
        self.issuer = issuer
        self.http = http
    }

    /// The authorization and token endpoints the issuer publishes (both allowed addresses).
    func endpoints() async throws(ProviderUnreachable) -> (authorization: String, token: String) {
        if let found { return found }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let answer = try await http.get(base + "/.well-known/openid-configuration")
        guard answer.status == 200, answer.json["issuer"]?.stringValue == issuer,
            let authorization = answer.json["authorization_endpoint"]?.stringValue, ProviderSettings.isAllowedEndpoint(authorization),
            let token = answer.json["token_endpoint"]?.stringValue, ProviderSettings.isAllowedEndpoint(token)
        else { throw ProviderUnreachable() }
        found = (authorization, token)
        return (authorization, token)
    }
}
