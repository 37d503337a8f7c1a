import Foundation
import RooftopCore
import RooftopIdentity
import RooftopTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The shared stand-in identity provider (RooftopTesting), as the SDK's tests use it.
extension StandInIdentityProvider {
    /// An ID token of the `oidc` tenant for `sub`, minted now.
    func idToken(sub: String) async throws -> String { try await token("/control/mint", ["tenant": "oidc", "sub": .string(sub), "aud": "client-1"]) }

    /// What a browser does with the start URL: follows it to the provider's form, signs in as
    /// `subject` (or cancels) by posting the form, and follows the redirects back — through the
    /// server's callback to the app's redirect. Real HTTP throughout.
    static func browse(_ start: URL, subject: String, allow: Bool = true) async throws {
        let (page, response) = try await URLSession.shared.data(from: start)
        guard let form = response.url, String(decoding: page, as: UTF8.self).contains("id='subject'") else {
            throw RTTestError("no sign-in form at the provider")
        }
        var fields = (URLComponents(url: form, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        fields += [("subject", subject), ("decision", allow ? "allow" : "deny")]
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var post = URLRequest(url: form)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(
            fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&").utf8)
        _ = try await URLSession.shared.data(for: post)
    }
}

/// A test helper failed.
struct RTTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
