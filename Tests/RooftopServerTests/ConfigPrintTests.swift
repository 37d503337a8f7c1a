import RooftopCore
import RooftopHTTP
import RooftopServer
import RooftopServices
import Testing

/// `rooftop config print`: readable, every key, secrets redacted, generated keys shown.
@Suite struct ConfigPrintTests {
    @Test func everyKeyPrintedAndSecretsRedacted() throws {
        let dir = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        try configuration.apply(
            [
                "dataDir": .string(dir.path), "appId": "app", "masterKey": "m-secret", "clientKey": "c-secret",
                "databaseURI": "postgres://rooftop:db-secret@db.example.com:5432/app", "mail": ["password": "smtp-secret", "from": "a@b.c"],
            ], source: "file")
        let text = try configuration.printout()
        for secret in ["m-secret", "c-secret", "db-secret", "smtp-secret"] { #expect(!text.contains(secret)) }
        let printed = try JSONParser.parse(text)
        #expect(printed["appId"] == "app")
        #expect(printed["masterKey"] == "<redacted>")
        #expect(printed["clientKey"] == "<redacted>")
        #expect(printed["restAPIKey"] == .null)  // unset: not in use
        #expect(printed["databaseURI"]?.stringValue?.hasPrefix("postgres://rooftop:%3Credacted%3E@db.example.com") == true)
        #expect(printed["mail"]?["password"] == "<redacted>")
        #expect(Set(printed.objectValue?.keys.map { $0 } ?? []) == Set(ServerConfiguration.keys))
        // Indented, one member per line, keys sorted.
        let lines = text.split(separator: "\n")
        #expect(lines.first == "{" && lines.last == "}")
        let topLevel = lines.filter { $0.hasPrefix("  \"") }.map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(topLevel == topLevel.sorted())
        #expect(topLevel.count == ServerConfiguration.keys.count)
    }

    @Test func keysFromTheKeyFileAreShownNotNull() throws {
        let dir = try TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.dataDir = dir.path
        let before = try JSONParser.parse(try configuration.printout())
        #expect(before["appId"] == "<generated on first serve>")
        #expect(before["masterKey"] == "<generated on first serve>")
        try dir.write("keys.json", #"{"appId":"generated-app","masterKey":"generated-master"}"#)
        let text = try configuration.printout()
        let printed = try JSONParser.parse(text)
        #expect(printed["appId"] == "generated-app")
        #expect(printed["masterKey"] == "<redacted>")
        #expect(!text.contains("generated-master"))
    }
}

extension ConfigPrintTests {
    /// A secret that merely looks like a database URL is still hidden whole.
    @Test func onlyTheDatabaseURLKeepsItsHost() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(["masterKey": "postgres://not-a-url", "databaseURI": "postgres://db.example.com/app"], source: "file")
        let printed = configuration.redacted
        #expect(printed["masterKey"] == "<redacted>")
        #expect(printed["databaseURI"] == "postgres://db.example.com/app")
    }
}
