import Foundation
import RooftopCore
import RooftopServer
import RooftopServices
import Testing

/// `passkeys`: the relying party, its origins and apps; what the server runs with when unset.
@Suite struct PasskeyConfigTests {
    func configuration(_ values: [String: JSON]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: "environment")
        return configuration
    }

    @Test func theRelyingPartyComesFromThePublicURLUnlessSet() throws {
        var development = try configuration(["profile": "development", "port": 1337])
        development.host = "0.0.0.0"
        // Browsers refuse an IP address as an RP ID: a loopback address is `localhost`.
        #expect(development.effectivePasskeys.relyingPartyId == "localhost")
        #expect(development.effectivePasskeys.origins == ["http://localhost:1337"])
        let public_ = try configuration(["publicServerURL": "https://api.example.com/parse"])
        #expect(public_.effectivePasskeys.relyingPartyId == "api.example.com")
        #expect(public_.effectivePasskeys.origins == ["https://api.example.com"])
        let set = try configuration([
            "publicServerURL": "https://api.example.com/parse",
            "passkeys": ["relyingPartyId": "example.com", "origins": ["https://example.com", "https://app.example.com"]],
        ])
        #expect(set.effectivePasskeys.relyingPartyId == "example.com")
        #expect(set.effectivePasskeys.origins == ["https://example.com", "https://app.example.com"])
        #expect(set.effectivePasskeys.requiresUserVerification && set.effectivePasskeys.maxPerUser == 10)
        // Production without a public URL or an RP ID: off.
        #expect(try configuration(["profile": "production"]).effectivePasskeys.relyingPartyId == nil)
    }

    @Test func androidAppsAddTheirOrigins() throws {
        let fingerprint = (0..<32).map { String(format: "%02x", $0) }.joined(separator: ":")
        let configured = try configuration([
            "passkeys": ["relyingPartyId": "example.com", "androidApps": [["package": "com.example.app", "fingerprints": [.string(fingerprint)]]]]
        ])
        let apps = configured.accounts.passkeys.androidApps
        #expect(apps == [PasskeySettings.AndroidApp(packageName: "com.example.app", fingerprints: [fingerprint.uppercased()])])
        #expect(configured.accounts.passkeys.allowedOrigins == ["android:apk-key-hash:" + Base64URL.encode(Array(0..<32))])
    }

    @Test func badValuesStopTheStart() {
        let bad: [JSON] = [
            ["relyingPartyId": "example.com", "origins": ["http://example.com"]],  // plain http off localhost
            ["relyingPartyId": "example.com", "origins": ["https://example.com/path"]],
            ["relyingPartyId": "example.com", "origins": ["android:apk-key-hash:short"]],
            ["relyingPartyId": "example.com", "origins": ["https://example.org"]],  // not on the RP ID
            ["relyingPartyId": "https://example.com"],
            ["relyingPartyId": "Example.com"],
            ["userVerification": "discouraged"],
            ["maxPerUser": 0], ["maxPerUser": 101],
            ["androidApps": [["package": "com.example.app", "fingerprints": ["AB:CD"]]]],
            ["androidApps": [["package": "com.example.app"]]],
            ["relyingPartyID": "example.com"],
            ["relyingPartyId": "192.168.1.10"],
            ["origins": ["https://example.com"]],  // no RP ID to check them against
        ]
        for value in bad {
            var configuration = ServerConfiguration()
            #expect(throws: ConfigError.self, "\(value)") { try configuration.apply(["passkeys": value], source: "environment") }
        }
    }
}
