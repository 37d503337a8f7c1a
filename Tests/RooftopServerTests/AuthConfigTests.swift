import Foundation
import RooftopCore
import RooftopIdentity
import RooftopServer
import RooftopServices
import Testing

/// The `auth` option: Parse's names per provider, secrets hidden by `config print`, endpoints
/// `https` only (loopback `http` for tests), incomplete providers refused at start-up.
@Suite struct AuthConfigTests {
    @Test func providersAreReadWithParsesNames() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(
            [
                "auth": [
                    "apple": ["clientId": ["com.example.app", "com.example.web"]], "google": ["clientId": "g.apps.googleusercontent.com"],
                    "facebook": ["appIds": "123,456", "appSecret": "fb-secret"], "github": [:],
                    "corp": ["issuer": "https://login.example.com", "clientId": "rooftop"],
                ]
            ], source: "file")
        let byName = Dictionary(uniqueKeysWithValues: configuration.auth.map { ($0.name, $0) })
        #expect(byName["apple"] == ProviderSettings(name: "apple", kind: .apple, clientIds: ["com.example.app", "com.example.web"]))
        #expect(byName["facebook"]?.clientIds == ["123", "456"] && byName["facebook"]?.clientSecret == "fb-secret")
        #expect(byName["corp"]?.kind == .oidc && byName["corp"]?.issuer == "https://login.example.com")
        #expect(byName["github"]?.kind == .github)
        let text = try configuration.printout()
        #expect(!text.contains("fb-secret"))
        #expect(try JSONParser.parse(text)["auth"]?["facebook"]?["appSecret"] == "<redacted>")
    }

    /// A throwaway P-256 key in Apple's `.p8` form (PKCS#8 PEM), made for this test only.
    static let testP8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgo3Xg7vVcq0N1o0hy
        ZH7MJa1dN+4lvpY2nvWqdkQKg8+hRANCAAThesbaOn4MCgDfnrigCyfM7yINlZua
        yweUvouZo7Snvyxc7ZyFr/F34k3HPm+6OV0xX/FajztIPYU9GLJZVnZf
        -----END PRIVATE KEY-----
        """
    /// A P-384 key: a PEM private key, but not one Apple's ES256 can use.
    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDAItWyo1e5CDehap8xK
        b2tIYNH8iYE7L/H1e8TvmfZLRzmVgt8kAV07CIUFWweQlPihZANiAATiPtecAf9y
        STnzMfCjvFX+sACA4kXZtvBXESYAHwAIy1Aew7PegYjdzcloYcNqgN3xq3cwIkRk
        K84xnzdY82F/dXhEiSZTdT/23+w93giaoj7xejM5vClMgq8W8OSBvJ0=
        -----END PRIVATE KEY-----
        """

    /// Sign in with Apple's signing key: inline or from a file, all three parts together, never
    /// beside a pre-signed `clientSecret`, a P-256 key only; `config print` and the settings'
    /// descriptions never show it.
    @Test func appleSigningKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID().uuidString).p8")
        try Data(Self.testP8.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for key: JSON in [["privateKey": .string(Self.testP8)], ["privateKeyPath": .string(file.path)]] {
            var configuration = ServerConfiguration()
            var apple: [String: JSON] = ["clientId": "com.example.web", "teamId": "TEAM123456", "keyId": "KEY1234567"]
            apple.merge(key.objectValue ?? [:]) { $1 }
            try configuration.apply(["auth": ["apple": .object(apple)]], source: "file")
            let settings = try #require(configuration.auth.first)
            #expect(settings.appleKey == AppleSigningKey(teamId: "TEAM123456", keyId: "KEY1234567", privateKey: Self.testP8))
            let text = try configuration.printout()
            #expect(!text.contains("MIGHAgEA") && !"\(settings)".contains("MIGHAgEA") && !String(reflecting: settings).contains("MIGHAgEA"))
            #expect(try JSONParser.parse(text)["auth"]?["apple"]?["privateKey"] == "<redacted>")
            #expect(try JSONParser.parse(text)["auth"]?["apple"]?["keyId"] == "KEY1234567")
        }
        let refused: [JSON] = [
            ["clientId": "w", "teamId": "T", "keyId": "K"], ["clientId": "w", "keyId": "K", "privateKey": .string(Self.testP8)],
            ["clientId": "w", "teamId": "T", "keyId": "K", "privateKey": "not a key"],
            ["clientId": "w", "teamId": "T", "keyId": "K", "privateKey": .string(Self.p384)],
            ["clientId": "w", "teamId": "T", "keyId": "K", "privateKeyPath": "/nonexistent/AuthKey.p8"],
            ["clientId": "w", "teamId": "T", "keyId": "K", "privateKey": .string(Self.testP8), "clientSecret": "eyJ.pre.signed"],
            ["clientId": "w", "teamId": "T\u{0}", "keyId": "K", "privateKey": .string(Self.testP8)],
            ["clientId": "w", "teamId": ["$ne": 1], "keyId": "K", "privateKey": .string(Self.testP8)],
            ["clientId": "w", "teamId": "T", "keyId": "K", "privateKey": .string(Self.testP8), "privateKeyPath": .string(file.path)],
        ]
        for apple in refused {
            var configuration = ServerConfiguration()
            do {
                try configuration.apply(["auth": ["apple": apple]], source: "file")
                Issue.record("accepted \(apple)")
            } catch {
                #expect(!"\(error)".contains("MIGHAgEA"), "the error quotes the key")
            }
        }
        // The pre-signed secret alone still works.
        var presigned = ServerConfiguration()
        try presigned.apply(["auth": ["apple": ["clientId": "w", "clientSecret": "eyJ.pre.signed"]]], source: "file")
        #expect(presigned.auth.first?.clientSecret == "eyJ.pre.signed" && presigned.auth.first?.appleKey == nil)
    }

    @Test func incompleteOrUnsafeProvidersAreRefused() {
        let refused: [JSON] = [
            ["apple": [:]], ["google": ["clientId": ""]], ["facebook": ["appSecret": "s"]], ["corp": ["clientId": "x"]],
            ["corp": ["issuer": "http://login.example.com", "clientId": "x"]], ["apple": ["clientId": "x", "jwksURL": "ftp://x"]],
            ["github": ["token": "x"]], ["anonymous": [:]], ["bad name": ["issuer": "https://x", "clientId": "x"]],
        ]
        for value in refused {
            var configuration = ServerConfiguration()
            #expect(throws: (any Error).self, "\(value)") { try configuration.apply(["auth": value], source: "file") }
        }
        var loopback = ServerConfiguration()
        #expect(throws: Never.self) {
            try loopback.apply(["auth": ["corp": ["issuer": "http://127.0.0.1:8080/corp", "clientId": "x"]]], source: "file")
        }
    }

    /// The browser flow's keys: `clientSecret` hidden like `appSecret`, endpoints `https` only,
    /// and `authRedirectURIs` absolute without a fragment.
    @Test func browserFlowKeys() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(
            [
                "auth": [
                    "github": ["clientId": "gh", "clientSecret": "gh-secret"],
                    "corp": [
                        "issuer": "https://login.example.com", "clientId": "rooftop", "clientSecret": "corp-secret",
                        "authorizationEndpoint": "https://login.example.com/auth", "tokenEndpoint": "https://login.example.com/token",
                    ],
                ],
                "authRedirectURIs": ["com.example.app:/oauth", "http://127.0.0.1/callback"],
            ], source: "file")
        let byName = Dictionary(uniqueKeysWithValues: configuration.auth.map { ($0.name, $0) })
        #expect(byName["github"]?.clientIds == ["gh"] && byName["github"]?.clientSecret == "gh-secret")
        #expect(byName["corp"]?.tokenEndpoint == "https://login.example.com/token")
        #expect(configuration.accounts.authRedirectURIs == ["com.example.app:/oauth", "http://127.0.0.1/callback"])
        let text = try configuration.printout()
        #expect(!text.contains("gh-secret") && !text.contains("corp-secret"))
        #expect(try JSONParser.parse(text)["auth"]?["corp"]?["clientSecret"] == "<redacted>")
        for bad: [String: JSON] in [
            ["auth": ["corp": ["issuer": "https://x", "clientId": "x", "tokenEndpoint": "http://evil.example/token"]]],
            ["authRedirectURIs": ["/relative"]], ["authRedirectURIs": ["com.example.app:/oauth#frag"]],
        ] {
            var refused = ServerConfiguration()
            #expect(throws: (any Error).self, "\(bad)") { try refused.apply(bad, source: "file") }
        }
    }
}
