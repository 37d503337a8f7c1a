import Foundation
package import RooftopCore
package import RooftopIdentity

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The stand-in identity provider (`Tests/Support/identity_provider.py`) on 127.0.0.1: OIDC
/// discovery and JWKS for the `apple`, `google` and `oidc` tenants, Facebook's Graph and
/// GitHub's `/user` and token check, and the hooks a test uses to mint tokens, honest or hostile.
package final class StandInIdentityProvider: @unchecked Sendable {
    /// Where it listens on 127.0.0.1.
    package let port: Int
    private let process: Process
    /// Where the stand-in wrote its Sign in with Apple keys (Apple mode), and its TLS files.
    private let keyDirectory: URL
    /// With `tls`: the port the same endpoints answer on over HTTPS, with a certificate from a
    /// throwaway certificate authority, and that authority's PEM file.
    package let tlsPort: Int?
    /// The throwaway certificate authority's certificate (PEM), with `tls`.
    package var caFile: String? { tlsPort == nil ? nil : keyDirectory.appendingPathComponent("ca.pem").path }

    /// Its base URL.
    package var base: String { "http://127.0.0.1:\(port)" }

    /// Starts it (bounded: 20 s) from the test Python environment; with `tls`, also over HTTPS
    /// on `tlsPort`, as a provider behind an internal certificate authority.
    package init(tls: Bool = false) throws {
        guard FileManager.default.isExecutableFile(atPath: SMTPTestServer.python) else {
            throw StandInError("no Python test environment at \(SMTPTestServer.python): run ./scripts/test, which creates it")
        }
        port = try Loopback.freePort()
        keyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keyDirectory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: SMTPTestServer.python)
        process.arguments = [
            SMTPTestServer.root.appendingPathComponent("Tests/Support/identity_provider.py").path, String(port), keyDirectory.path,
        ]
        if tls {
            let secure = try Loopback.freePort()
            try SMTPTestServer.run(
                SMTPTestServer.python, [SMTPTestServer.root.appendingPathComponent("Tests/Support/make_certs.py").path, keyDirectory.path])
            process.arguments? += [String(secure), keyDirectory.path]
            tlsPort = secure
        } else {
            tlsPort = nil
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 5), as: UTF8.self)
        watchdog.cancel()
        guard line == "ready" else {
            stop()
            throw StandInError("the stand-in identity provider did not start (PyJWT missing? run ./scripts/test)")
        }
    }

    deinit { stop() }

    /// Stops the process by its PID.
    package func stop() {
        try? FileManager.default.removeItem(at: keyDirectory)
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// The Sign in with Apple key the stand-in issued (`AuthKey.p8`, as Apple's portal gives it),
    /// or `WrongKey.p8`, one Apple never issued; `keyId` and `teamId` replace the real ones.
    package func appleKey(wrong: Bool = false, keyId: String = "KEYSTAND01", teamId: String = "TEAMSTAND1") throws -> AppleSigningKey {
        let file = keyDirectory.appendingPathComponent(wrong ? "WrongKey.p8" : "AuthKey.p8")
        return AppleSigningKey(teamId: teamId, keyId: keyId, privateKey: try String(contentsOf: file, encoding: .utf8))
    }

    /// The `iat` of each distinct Apple client secret the token endpoint accepted, in order.
    package func appleSecretsAccepted() async throws -> [Int] {
        try await request("/control/stats", nil)["apple_secrets"]?.arrayValue?.compactMap(\.intValue) ?? []
    }

    /// Every provider pointed at this stand-in; the generic one finds its keys by discovery.
    /// The client secrets and endpoints are the browser flow's (OpenID Connect endpoints come
    /// from discovery); Apple's client secret is signed with the stand-in's `AuthKey.p8`.
    package func settings(audiences: [String] = ["client-1", "client-2"]) -> [ProviderSettings] {
        [
            ProviderSettings(
                name: "apple", kind: .apple, clientIds: audiences, issuer: "\(base)/apple", jwksURL: "\(base)/apple/keys",
                appleKey: try? appleKey()),
            ProviderSettings(
                name: "google", kind: .google, clientIds: audiences, clientSecret: "google-secret", issuer: "\(base)/google",
                jwksURL: "\(base)/google/keys"),
            ProviderSettings(name: "oidc", kind: .oidc, clientIds: audiences, clientSecret: "oidc-secret", issuer: "\(base)/oidc"),
            ProviderSettings(
                name: "facebook", kind: .facebook, clientIds: ["fb-app"], clientSecret: "fb-secret", apiURL: "\(base)/facebook",
                authorizationEndpoint: "\(base)/facebook/dialog/oauth"),
            ProviderSettings(
                name: "github", kind: .github, clientIds: ["gh-client"], clientSecret: "gh-secret", apiURL: "\(base)/github",
                authorizationEndpoint: "\(base)/github/login/oauth/authorize", tokenEndpoint: "\(base)/github/login/oauth/access_token"),
        ]
    }

    /// An ID token of `tenant` minted at the test clock's `now` (seconds); `extra` adds claims,
    /// headers or an `attack`.
    package func idToken(_ tenant: String, sub: String, now: Int64, aud: String = "client-1", _ extra: [String: JSON] = [:]) async throws -> String {
        var spec: [String: JSON] = ["tenant": .string(tenant), "sub": .string(sub), "aud": .string(aud), "now": .number(Double(now))]
        spec.merge(extra) { $1 }
        return try await token("/control/mint", spec)
    }

    /// A Facebook access token for `userId` issued to `appId`.
    package func facebookToken(userId: String, appId: String = "fb-app", valid: Bool = true) async throws -> String {
        try await token("/control/facebook", ["user_id": .string(userId), "app_id": .string(appId), "valid": .bool(valid), "name": "Fay"])
    }

    /// A GitHub access token for the numeric user `id`, issued to the OAuth app `app` (this
    /// server's `gh-client` unless another app is named).
    package func githubToken(id: Int, app: String = "gh-client") async throws -> String {
        try await token("/control/github", ["id": .number(Double(id)), "login": "octo", "email": "octo@example.com", "app": .string(app)])
    }

    /// A new signing key for `tenant`; the old one leaves its JWKS.
    package func rotate(_ tenant: String) async throws {
        _ = try await request("/control/rotate", ["tenant": .string(tenant)])
    }

    /// Serves `tenant`'s JWKS with `Cache-Control: value` (none when nil).
    package func jwksCacheControl(_ tenant: String, _ value: String?) async throws {
        _ = try await request("/control/jwks-cache", ["tenant": .string(tenant), "cache_control": value.map(JSON.string) ?? .null])
    }

    /// How often each tenant's JWKS was fetched.
    package func jwksFetches(_ tenant: String) async throws -> Int {
        try await request("/control/stats", nil)["jwks"]?[tenant]?.intValue ?? -1
    }

    /// The token a control hook mints from `spec`.
    package func token(_ path: String, _ spec: [String: JSON]) async throws -> String {
        guard let token = try await request(path, spec)["token"]?.stringValue else { throw StandInError("no token from \(path)") }
        return token
    }

    private func request(_ path: String, _ body: [String: JSON]?) async throws -> JSON {
        guard let url = URL(string: base + path) else { throw StandInError("bad path \(path)") }
        var request = URLRequest(url: url)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(JSONWriter.bytes(.object(body)))
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONParser.parse(Array(data))
    }
}

/// The stand-in could not start or answered nonsense.
package struct StandInError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

extension StandInIdentityProvider {
    /// Sets the stand-in's clock (ID tokens are minted at it; codes expire on it), in seconds.
    package func setClock(_ seconds: Int64) async throws { try await control("/control/clock", ["now": .number(Double(seconds))]) }

    /// Moves the stand-in's clock.
    package func advance(seconds: Int) async throws { try await control("/control/advance", ["seconds": .number(Double(seconds))]) }

    private func control(_ path: String, _ body: [String: JSON]) async throws {
        guard let url = URL(string: base + path) else { throw StandInError("bad path") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(JSONWriter.bytes(.object(body)))
        _ = try await URLSession.shared.data(for: request)
    }
}
