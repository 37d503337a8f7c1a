import Crypto
import Foundation
package import RooftopCore
package import RooftopServices

/// Facebook (Parse's `auth.facebook`: `appIds`, `appSecret`): `authData.facebook` is
/// `{"id", "access_token"}`.
///
/// With `appSecret`, the Graph API's `debug_token` says which app the token was issued to and
/// for whom; without it, `GET /app` says the app. `GET /me` (with `appsecret_proof` when the
/// secret is known) must then name the same user, and gives the profile.
package struct FacebookProvider: AuthProvider {
    /// The `authData` key.
    package let name: String
    let appIds: [String]
    let appSecret: String?
    let graph: String
    /// The browser flow's client (the first of `appIds`, `appSecret`).
    let oauth: OAuthClient
    /// The client providers are called with.
    let http: ProviderHTTP

    init(_ settings: ProviderSettings, http: ProviderHTTP) {
        self.http = http
        name = settings.name
        appIds = settings.clientIds
        appSecret = settings.clientSecret
        graph = settings.apiURL ?? ProviderSettings.facebookGraph
        oauth = OAuthClient(
            clientId: settings.clientIds.first, clientSecret: settings.clientSecret.map(ClientSecret.fixed),
            authorizationEndpoint: settings.authorizationEndpoint ?? ProviderSettings.facebookAuthorize,
            tokenEndpoint: settings.tokenEndpoint ?? "\(graph)/oauth/access_token", discovery: nil, http: http, getsToken: true)
    }

    /// The user id an access token belongs to (`GET /me`), for the browser flow.
    func userId(_ token: String) async throws -> String {
        var me = "\(graph)/me?fields=id&access_token=\(Self.queryEncoded(token))"
        if let appSecret { me += "&appsecret_proof=\(Self.proof(token, secret: appSecret))" }
        let answer = try? await http.get(me)
        guard let answer, answer.status == 200, let id = Self.text(answer.json["id"]) else {
            throw ParseError(.objectNotFound, "authData.\(name) access token is not valid.")
        }
        return id
    }

    /// Checks the token with the Graph API.
    package func validate(_ data: [String: JSON]) async throws -> VerifiedIdentity {
        let id = try ProviderInput.id(data, provider: name)
        guard let token = data["access_token"]?.stringValue, !token.isEmpty else {
            throw refused("needs an access_token")
        }
        do {
            let encoded = Self.queryEncoded(token)
            if let appSecret, let appId = appIds.first {
                let inspection = try await http.get(
                    "\(graph)/debug_token?input_token=\(encoded)&access_token=\(Self.queryEncoded(appId + "|" + appSecret))")
                let info = inspection.json["data"]
                guard inspection.status == 200, info?["is_valid"] == .bool(true) else { throw refused("access token is not valid") }
                guard let app = Self.text(info?["app_id"]), appIds.contains(app) else { throw refused("access token is for another app") }
                guard Self.text(info?["user_id"]) == id else { throw refused("access token is for another user") }
            } else {
                let app = try await http.get("\(graph)/app?access_token=\(encoded)")
                guard app.status == 200 else { throw refused("access token is not valid") }
                guard let appId = Self.text(app.json["id"]), appIds.contains(appId) else { throw refused("access token is for another app") }
            }
            var me = "\(graph)/me?fields=id,name,email&access_token=\(encoded)"
            if let appSecret { me += "&appsecret_proof=\(Self.proof(token, secret: appSecret))" }
            let profile = try await http.get(me)
            guard profile.status == 200 else { throw refused("access token is not valid") }
            guard Self.text(profile.json["id"]) == id else { throw refused("access token is for another user") }
            return VerifiedIdentity(
                provider: name, subject: id, email: profile.json["email"]?.stringValue, emailVerified: false, name: profile.json["name"]?.stringValue)
        } catch is ProviderUnreachable {
            throw ParseError(.objectNotFound, "authData.\(name) could not be validated: the provider is unreachable.")
        }
    }

    private func refused(_ reason: String) -> ParseError { ParseError(.objectNotFound, "authData.\(name) \(reason).") }

    /// A Graph id, given as text or as a number.
    static func text(_ value: JSON?) -> String? {
        if let text = value?.stringValue { return text }
        return value?.intValue.map(String.init)
    }

    /// `appsecret_proof`: hex HMAC-SHA256 of the token keyed with the app secret.
    static func proof(_ token: String, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// A query-string value.
    static func queryEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
