import RooftopCore

/// A provider's token that the app already holds (from the platform's own sign-in: Sign in with
/// Apple, Google Sign-In, the Facebook SDK, a GitHub OAuth app, any OpenID Connect library), in
/// the shape Parse's `authData` gives it. The server checks it with the provider; the SDK never
/// keeps it.
public enum RTAuthCredential: Sendable, Equatable {
    /// Sign in with Apple: `credential.user` and `credential.identityToken` (UTF-8), and the raw
    /// nonce when the request carried its SHA-256.
    case apple(user: String, identityToken: String, nonce: String? = nil)
    /// Google Sign-In: the user's id (`sub`) and the ID token.
    case google(id: String, idToken: String)
    /// Facebook Login: `AccessToken.current.userID` and the token string.
    case facebook(id: String, accessToken: String)
    /// GitHub: the numeric user id (as text) and a user access token.
    case github(id: String, accessToken: String)
    /// An OpenID Connect provider the server configures under `provider`: the ID token's `sub`,
    /// the token, and its nonce if any.
    case openID(provider: String, id: String, idToken: String, nonce: String? = nil)

    /// The `authData` key.
    public var provider: String {
        switch self {
        case .apple: "apple"
        case .google: "google"
        case .facebook: "facebook"
        case .github: "github"
        case .openID(let provider, _, _, _): provider
        }
    }

    /// The provider's user id.
    public var id: String {
        switch self {
        case .apple(let user, _, _): user
        case .google(let id, _), .facebook(let id, _), .github(let id, _), .openID(_, let id, _, _): id
        }
    }

    /// `authData.<provider>` as Parse's server expects it.
    var authData: JSON {
        var data: [String: JSON] = ["id": .string(id)]
        switch self {
        case .apple(_, let token, let nonce):
            data["token"] = .string(token)
            data["nonce"] = nonce.map(JSON.string)
        case .google(_, let token): data["id_token"] = .string(token)
        case .facebook(_, let token), .github(_, let token): data["access_token"] = .string(token)
        case .openID(_, _, let token, let nonce):
            data["id_token"] = .string(token)
            data["nonce"] = nonce.map(JSON.string)
        }
        return .object(data)
    }
}
