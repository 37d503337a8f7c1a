import Foundation

/// One configured sign-in provider (an entry of Parse's `auth` option), before it is built.
///
/// Endpoint overrides (`issuer`, `jwksURL`, `apiURL` on the presets) point a preset at another
/// deployment of the same protocol (GitHub Enterprise Server) or, in tests, at a stand-in on
/// loopback.
package struct ProviderSettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Which protocol the provider speaks.
    package enum Kind: String, Sendable {
        /// Sign in with Apple: ID tokens from `https://appleid.apple.com`.
        case apple
        /// Google: ID tokens from `https://accounts.google.com`.
        case google
        /// Facebook: access tokens checked with the Graph API.
        case facebook
        /// GitHub: access tokens checked with GitHub's token check for this app, then `GET /user`.
        case github
        /// Any OpenID Connect provider, found by discovery from its issuer.
        case oidc
    }

    /// The `authData` key (`apple`, `google`, …, or the operator's name for an OIDC provider).
    package var name: String
    /// The protocol.
    package var kind: Kind
    /// The accepted audiences (Apple bundle/service ids, Google and OIDC client ids) or
    /// Facebook's `appIds`; GitHub needs none.
    package var clientIds: [String] = []
    /// The client secret the browser flow's token endpoint takes (`clientSecret`; Facebook's
    /// `appSecret`, which also signs Graph calls). A secret: `config print` hides it.
    package var clientSecret: String?
    /// The browser flow's authorization endpoint: from discovery for OpenID Connect providers,
    /// the provider's own for Facebook and GitHub, unless configured.
    package var authorizationEndpoint: String?
    /// The browser flow's token endpoint (same defaults).
    package var tokenEndpoint: String?
    /// The issuer: required for OIDC, an override for Apple and Google.
    package var issuer: String?
    /// The JWKS address: an override for Apple and Google, optional for OIDC (else discovery's
    /// `jwks_uri`).
    package var jwksURL: String?
    /// Facebook's Graph or GitHub's API base address (GitHub Enterprise Server's `/api/v3`).
    package var apiURL: String?
    /// Sign in with Apple: the key the server signs its client secret with (instead of a
    /// pre-signed `clientSecret`).
    package var appleKey: AppleSigningKey?

    /// Creates settings.
    package init(
        name: String, kind: Kind, clientIds: [String] = [], clientSecret: String? = nil, issuer: String? = nil, jwksURL: String? = nil,
        apiURL: String? = nil, authorizationEndpoint: String? = nil, tokenEndpoint: String? = nil, appleKey: AppleSigningKey? = nil
    ) {
        self.appleKey = appleKey
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.name = name
        self.kind = kind
        self.clientIds = clientIds
        self.clientSecret = clientSecret
        self.issuer = issuer
        self.jwksURL = jwksURL
        self.apiURL = apiURL
    }

    /// The client id and secret, when both are set (not empty): what GitHub's token check needs.
    package var clientCredentials: (id: String, secret: String)? {
        guard let id = clientIds.first, !id.isEmpty, let secret = clientSecret, !secret.isEmpty else { return nil }
        return (id, secret)
    }

    /// The settings without secrets, for messages and logs.
    package var description: String {
        "\(kind.rawValue) provider \(name) (clientIds \(clientIds)\(clientSecret == nil ? "" : ", a client secret")"
            + "\(appleKey == nil ? "" : ", a Sign in with Apple key"))"
    }

    /// Apple's issuer and keys.
    package static let appleIssuer = "https://appleid.apple.com"
    static let appleKeys = "https://appleid.apple.com/auth/keys"
    /// Google's issuer (its tokens also carry it without the scheme) and keys.
    package static let googleIssuer = "https://accounts.google.com"
    static let googleKeys = "https://www.googleapis.com/oauth2/v3/certs"
    /// Facebook's Graph API.
    package static let facebookGraph = "https://graph.facebook.com"
    /// GitHub's REST API.
    package static let githubAPI = "https://api.github.com"
    /// Facebook Login's authorization dialog.
    static let facebookAuthorize = "https://www.facebook.com/v19.0/dialog/oauth"
    /// GitHub's OAuth endpoints.
    static let githubAuthorize = "https://github.com/login/oauth/authorize"
    static let githubToken = "https://github.com/login/oauth/access_token"

    /// The same as `description`: secrets stay out of debug output too.
    package var debugDescription: String { description }

    /// Whether `address` may be called: `https`, or `http` to a loopback host (tests).
    package static func isAllowedEndpoint(_ address: String) -> Bool {
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }
}

/// Sign in with Apple's signing key (Certificates, Identifiers & Profiles → Keys): the client
/// secret of the browser flow is signed with it. The private key is a secret: never printed.
package struct AppleSigningKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The team id (`iss`).
    package var teamId: String
    /// The key id (`kid`).
    package var keyId: String
    /// The `.p8` file's text: a PKCS#8 PEM P-256 private key.
    package var privateKey: String

    /// Creates a key.
    package init(teamId: String, keyId: String, privateKey: String) {
        self.teamId = teamId
        self.keyId = keyId
        self.privateKey = privateKey
    }

    /// The ids, never the key.
    package var description: String { "Sign in with Apple key \(keyId) of team \(teamId)" }
    /// The same as `description`.
    package var debugDescription: String { description }
}
