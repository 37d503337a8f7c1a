package import RooftopCore
package import RooftopServices

/// GitHub (Parse's `auth.github`): `authData.github` is `{"id", "access_token"}`; `GET /user`
/// with the token must name the same user id, and gives the profile.
package struct GitHubProvider: AuthProvider {
    /// The `authData` key.
    package let name: String
    let api: String
    /// The browser flow's client (`clientId`, `clientSecret`).
    let oauth: OAuthClient

    init(_ settings: ProviderSettings) {
        name = settings.name
        api = settings.apiURL ?? ProviderSettings.githubAPI
        oauth = OAuthClient(
            clientId: settings.clientIds.first, clientSecret: settings.clientSecret.map(ClientSecret.fixed),
            authorizationEndpoint: settings.authorizationEndpoint ?? ProviderSettings.githubAuthorize,
            tokenEndpoint: settings.tokenEndpoint ?? ProviderSettings.githubToken, discovery: nil)
    }

    /// The user id an access token belongs to (`GET /user`), for the browser flow.
    func userId(_ token: String) async throws -> String {
        let answer = try? await ProviderHTTP.get(
            "\(api)/user", headers: [("Authorization", "Bearer \(token)"), ("X-GitHub-Api-Version", "2022-11-28")])
        guard let answer, answer.status == 200, let id = FacebookProvider.text(answer.json["id"]) else {
            throw ParseError(.objectNotFound, "authData.\(name) access token is not valid.")
        }
        return id
    }

    /// Checks the token with GitHub's API.
    package func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity {
        let id = try ProviderInput.id(data, provider: name)
        guard let token = data["access_token"]?.stringValue, !token.isEmpty, !token.contains(where: \.isNewline) else {
            throw ParseError(.objectNotFound, "authData.\(name) needs an access_token.")
        }
        let answer: ProviderHTTP.Answer
        do {
            answer = try await ProviderHTTP.get(
                "\(api)/user", headers: [("Authorization", "Bearer \(token)"), ("X-GitHub-Api-Version", "2022-11-28")])
        } catch {
            throw ParseError(.objectNotFound, "authData.\(name) could not be validated: the provider is unreachable.")
        }
        guard answer.status == 200 else { throw ParseError(.objectNotFound, "authData.\(name) access token is not valid.") }
        guard FacebookProvider.text(answer.json["id"]) == id else {
            throw ParseError(.objectNotFound, "authData.\(name) access token is for another user.")
        }
        return VerifiedIdentity(
            provider: name, subject: id, email: answer.json["email"]?.stringValue, emailVerified: false,
            name: answer.json["name"]?.stringValue ?? answer.json["login"]?.stringValue)
    }
}
