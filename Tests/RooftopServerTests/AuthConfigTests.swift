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
