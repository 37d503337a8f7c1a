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

/// The stand-in identity provider (`Tests/Support/identity_provider.py`) for the SDK's sign-in
/// tests: OIDC, GitHub and Facebook, their token-minting hooks and their browser sign-in forms.
final class SDKIdentityProvider: @unchecked Sendable {
    let port: Int
    private let process: Process
    var base: String { "http://127.0.0.1:\(port)" }

    init() throws {
        port = try Loopback.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: SMTPTestServer.python)
        process.arguments = [SMTPTestServer.root.appendingPathComponent("Tests/Support/identity_provider.py").path, String(port)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 5), as: UTF8.self)
        guard line == "ready" else {
            stop()
            throw RTTestError("the stand-in identity provider did not start (run ./scripts/test, which creates its Python environment)")
        }
    }

    deinit { stop() }

    /// Stops the process by its PID.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// The server's provider settings, pointed here.
    var settings: [ProviderSettings] {
        [
            ProviderSettings(name: "oidc", kind: .oidc, clientIds: ["client-1"], clientSecret: "oidc-secret", issuer: "\(base)/oidc"),
            ProviderSettings(
                name: "facebook", kind: .facebook, clientIds: ["fb-app"], clientSecret: "fb-secret", apiURL: "\(base)/facebook",
                authorizationEndpoint: "\(base)/facebook/dialog/oauth"),
            ProviderSettings(
                name: "github", kind: .github, clientIds: ["gh-client"], clientSecret: "gh-secret", apiURL: "\(base)/github",
                authorizationEndpoint: "\(base)/github/login/oauth/authorize", tokenEndpoint: "\(base)/github/login/oauth/access_token"),
        ]
    }

    /// An ID token of the `oidc` tenant for `sub`.
    func idToken(sub: String) async throws -> String { try await token("/control/mint", ["tenant": "oidc", "sub": .string(sub), "aud": "client-1"]) }

    /// A GitHub access token for the numeric user `id`.
    func githubToken(id: Int) async throws -> String { try await token("/control/github", ["id": .number(Double(id)), "login": "octo"]) }

    private func token(_ path: String, _ spec: [String: JSON]) async throws -> String {
        guard let url = URL(string: base + path) else { throw RTTestError("bad path") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(JSONWriter.bytes(.object(spec)))
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let token = try JSONParser.parse(Array(data))["token"]?.stringValue else { throw RTTestError("no token from \(path)") }
        return token
    }

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
