import RooftopCore
import RooftopServer
import Testing

/// The defaults a user would see (the random application id as the app's name, a sender that
/// mail servers refuse) are named once at start, with the setting that changes them.
@Suite struct StartupWarningsTests {
    func warnings(_ values: [String: JSON]) throws -> [String] {
        var configuration = ServerConfiguration()
        try configuration.apply(values, source: "test")
        return configuration.startupWarnings(appId: "k3Jd9")
    }

    @Test func aMissingAppNameIsNamedWithItsSetting() throws {
        let warnings = try warnings([:])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"k3Jd9\"") == true && warnings.first?.contains("ROOFTOP_APP_NAME") == true)
    }

    @Test func aMissingSenderMattersOnlyWhenMailLeaves() throws {
        #expect(try warnings(["appName": "Notes", "mail": ["transport": "outbox"]]).isEmpty)
        let smtp = try warnings(["appName": "Notes", "mail": ["transport": "smtp", "host": "mail.example.com"]])
        #expect(smtp.count == 1 && smtp.first?.contains("mail.from") == true)
        #expect(
            try warnings(["appName": "Notes", "mail": ["transport": "smtp", "host": "mail.example.com", "from": "Notes <hi@example.com>"]]).isEmpty)
    }
}

/// A GitHub provider that can't run GitHub's token check refuses native tokens: the start says so.
@Suite struct GitHubWarningTests {
    func warnings(_ github: JSON) throws -> [String] {
        var configuration = ServerConfiguration()
        try configuration.apply(["appName": "Notes", "auth": ["github": github]], source: "test")
        return configuration.startupWarnings(appId: "k3Jd9")
    }

    @Test func githubWithoutCredentialsIsNamed() throws {
        for github: JSON in [[:], ["clientId": "Iv1.abc"]] {
            let warnings = try warnings(github)
            #expect(warnings.count == 1 && warnings.first?.contains("auth.github") == true && warnings.first?.contains("clientSecret") == true)
        }
        #expect(try warnings(["clientId": "Iv1.abc", "clientSecret": ""]).count == 1, "an empty secret checks nothing either")
        #expect(try warnings(["clientId": "Iv1.abc", "clientSecret": "s3cret"]).isEmpty)
    }
}

/// The console over plain http to another machine sends admin passwords and cookies in clear:
/// the start says so; on loopback, behind https or with the console off it says nothing.
@Suite struct PlainHTTPConsoleWarningTests {
    func warnings(_ values: [String: JSON]) throws -> [String] {
        var configuration = ServerConfiguration()
        try configuration.apply(values.merging(["appName": "Notes"]) { a, _ in a }, source: "test")
        return configuration.startupWarnings(appId: "k3Jd9")
    }

    @Test func plainHTTPToAnotherMachineIsNamed() throws {
        for values: [String: JSON] in [
            ["host": "0.0.0.0"], ["publicServerURL": "http://api.example.com/parse"], ["host": "192.0.2.7"],
            ["publicServerURL": "http://localhost:1337/parse", "host": "0.0.0.0"],
        ] {
            let warnings = try warnings(values)
            #expect(warnings.count == 1 && warnings.first?.contains("plain http") == true, "\(values): \(warnings)")
        }
        for values: [String: JSON] in [
            [:], ["host": "::1"], ["publicServerURL": "https://api.example.com/parse", "host": "0.0.0.0"],
            ["publicServerURL": "http://localhost:1337/parse"], ["host": "0.0.0.0", "console": ["enabled": false]],
        ] {
            #expect(try warnings(values).isEmpty, "\(values)")
        }
    }
}
