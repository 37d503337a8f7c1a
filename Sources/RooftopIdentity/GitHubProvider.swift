import Foundation
package import RooftopCore
package import RooftopServices

/// GitHub (Parse's `auth.github`): `authData.github` is `{"id", "access_token"}`.
///
/// `GET /user` alone only proves that a token is some app's: any OAuth app a person ever
/// authorised holds a token that answers it. So a token is first checked with GitHub's "check a
/// token" call (`POST /applications/{client_id}/token`, authenticated with this server's
/// `clientId` and `clientSecret`), which answers only for tokens issued to this app, and must
/// name the same user id. Without both settings, native GitHub tokens are refused (the
/// server says so at start-up).
package struct GitHubProvider: AuthProvider {
    /// The `authData` key.
    package let name: String
    let api: String
    /// The app's OAuth client (`clientId`, `clientSecret`): the token check's credentials and
    /// the browser flow's client.
    let oauth: OAuthClient
    /// The client providers are called with.
    let http: ProviderHTTP
    /// The token check's credentials; nil when `clientId` or `clientSecret` is missing.
    let credentials: (id: String, secret: String)?

    init(_ settings: ProviderSettings, http: ProviderHTTP) {
        self.http = http
        name = settings.name
        api = settings.apiURL ?? ProviderSettings.githubAPI
        credentials = settings.clientCredentials
        oauth = OAuthClient(
            clientId: settings.clientIds.first, clientSecret: settings.clientSecret.map(ClientSecret.fixed),
            authorizationEndpoint: settings.authorizationEndpoint ?? ProviderSettings.githubAuthorize,
            tokenEndpoint: settings.tokenEndpoint ?? ProviderSettings.githubToken, discovery: nil, http: http)
    }

    /// The user id an access token belongs to (`GET /user`), for the browser flow (whose token
    /// `validate` then checks like any other).
    func userId(_ token: String) async throws -> String {
        let answer = try? await http.get(
            "\(api)/user", headers: [("Authorization", "Bearer \(token)"), ("X-GitHub-Api-Version", "2022-11-28")])
        guard let answer, answer.status == 200, let id = FacebookProvider.text(answer.json["id"]) else {
            throw ParseError(.objectNotFound, "authData.\(name) access token is not valid.")
        }
        return id
    }

    /// Checks that the token was issued to this app, for the user named, then reads the profile.
    package func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity {
        let id = try ProviderInput.id(data, provider: name)
        guard let token = data["access_token"]?.stringValue, !token.isEmpty, !token.contains(where: \.isNewline) else {
            throw refused("needs an access_token")
        }
        guard let (clientId, clientSecret) = credentials else {
            throw ParseError(
                .objectNotFound, "authData.\(name) tokens are not accepted: the server has no GitHub clientId and clientSecret to check them with.")
        }
        let headers = [("X-GitHub-Api-Version", "2022-11-28")]
        do {
            let basic = Data("\(clientId):\(clientSecret)".utf8).base64EncodedString()
            let check = try await http.postJSON(
                "\(api)/applications/\(FacebookProvider.queryEncoded(clientId))/token", ["access_token": .string(token)],
                headers: headers + [("Authorization", "Basic \(basic)")])
            // 404: not a live token of this app (another app's, revoked or made up).
            guard check.status == 200 else {
                throw refused(check.status == 404 ? "access token is not valid for this app" : "access token could not be checked")
            }
            guard check.json["app"]?["client_id"]?.stringValue == clientId else { throw refused("access token is for another app") }
            guard FacebookProvider.text(check.json["user"]?["id"]) == id else { throw refused("access token is for another user") }
            let profile = try await http.get("\(api)/user", headers: headers + [("Authorization", "Bearer \(token)")])
            guard profile.status == 200 else { throw refused("access token is not valid") }
            guard FacebookProvider.text(profile.json["id"]) == id else { throw refused("access token is for another user") }
            return VerifiedIdentity(
                provider: name, subject: id, email: profile.json["email"]?.stringValue, emailVerified: false,
                name: profile.json["name"]?.stringValue ?? profile.json["login"]?.stringValue)
        } catch is ProviderUnreachable {
            throw ParseError(.objectNotFound, "authData.\(name) could not be validated: the provider is unreachable.")
        }
    }

    private func refused(_ reason: String) -> ParseError { ParseError(.objectNotFound, "authData.\(name) \(reason).") }
}
