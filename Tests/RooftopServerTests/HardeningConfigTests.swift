import RooftopCore
import RooftopHTTP
import RooftopServer
import RooftopServices
import Testing

/// The hardening keys: their defaults, the `production` profile, and refused values.
@Suite struct HardeningConfigTests {
    func configuration(_ values: [String: JSON]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: "test")
        return configuration
    }

    @Test func passwordsInURLsFollowTheProfile() throws {
        #expect(try configuration([:]).http(appId: "a", masterKey: "m").allowPasswordInQuery == true)
        #expect(try configuration(["profile": "production"]).http(appId: "a", masterKey: "m").allowPasswordInQuery == false)
        let forced = try configuration(["profile": "production", "allowPasswordInQuery": true])
        #expect(forced.http(appId: "a", masterKey: "m").allowPasswordInQuery == true)
    }

    @Test func locationBaseIsThePublicURL() throws {
        #expect(try configuration([:]).http(appId: "a", masterKey: "m").publicURL == nil)
        #expect(try configuration(["serverURL": "http://in/parse"]).http(appId: "a", masterKey: "m").publicURL == "http://in/parse")
        let both = try configuration(["serverURL": "http://in/parse", "publicServerURL": "https://out/parse"])
        #expect(both.http(appId: "a", masterKey: "m").publicURL == "https://out/parse")
    }

    @Test func addressListsAndLimitsAreChecked() throws {
        #expect(try configuration(["masterKeyIps": "10.0.0.0/8, ::1, 192.168.1.7"]).httpSettings.masterKeyIps.count == 3)
        for bad in ["10.0.0.0/33", "example.com", "10.0.0.1/", "::1/129", "10.0.0.256", "*"] {
            #expect(throws: ConfigError.self) { try configuration(["masterKeyIps": .string(bad)]) }
            #expect(throws: ConfigError.self) { try configuration(["trustProxy": .string(bad)]) }
        }
        #expect(try configuration(["maxFieldsPerClass": 50]).services.maxFieldsPerClass == 50)
        #expect(throws: ConfigError.self) { try configuration(["maxFieldsPerClass": 0]) }
        #expect(try configuration(["idleTimeout": 5]).httpSettings.idleTimeout == .seconds(5))
        #expect(try configuration(["idleTimeout": 0]).httpSettings.idleTimeout == nil)
        #expect(throws: ConfigError.self) { try configuration(["idleTimeout": -1]) }
    }

    @Test func eventLoopsLeaveACoreToTheRestUnlessSet() throws {
        #expect(try configuration([:]).eventLoops == 0)
        #expect(try configuration(["eventLoops": 4]).eventLoops == 4)
        for bad: JSON in [-1, 1025, "two", 1.5] {
            #expect(throws: ConfigError.self) { try configuration(["eventLoops": bad]) }
        }
        // Automatic: one per core but one, never none; a number set is taken as it is.
        #expect(EventLoops.count(configured: 0, cores: 1) == 1)
        #expect(EventLoops.count(configured: 0, cores: 2) == 1)
        #expect(EventLoops.count(configured: 0, cores: 16) == 15)
        #expect(EventLoops.count(configured: 3, cores: 2) == 3)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false), ("127.0.0.64/26", "127.0.0.127", true),
        ("127.0.0.64/26", "127.0.0.128", false), ("::1", "::1", true), ("::1", "0:0:0:0:0:0:0:1", true), ("10.0.0.1", "::ffff:10.0.0.1", true),
        ("fd00::/8", "fd12::1", true), ("fd00::/8", "fe80::1", false), ("0.0.0.0/0", "8.8.8.8", true), ("10.0.0.1", "10.0.0.1 ", false),
        ("10.0.0.1", "10.0.0.1\u{0}", false), ("10.0.0.1", "", false), ("10.0.0.0/8", "10.0.0.0/8", false),
    ])
    func addressRanges(_ range: String, _ address: String, _ expected: Bool) throws {
        #expect(try #require(AddressRange(range)).contains(address) == expected)
    }
}
