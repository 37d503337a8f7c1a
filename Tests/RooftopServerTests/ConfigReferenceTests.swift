import ArgumentParser
import Foundation
import RooftopHTTP
import RooftopServer
import RooftopServices
import Testing

/// The table is the one definition: the docs and the environment's names come from it.
@Suite struct ConfigReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func docsMatchTheTable() throws {
        let path = Self.root.appendingPathComponent("docs/configuration.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let updated = try #require(ConfigReference.updating(document), "docs/configuration.md lost its generated-keys markers")
        #expect(
            updated == document,
            "docs/configuration.md is out of date with the key definitions; regenerate it: swift run rooftop config docs --update docs/configuration.md"
        )
    }

    @Test func everyKeyIsDescribedAndNamedOnce() throws {
        let names = ServerConfiguration.definitions.flatMap(\.names)
        #expect(Set(names).count == names.count)
        let keys = ServerConfiguration.definitions.flatMap { [$0] + $0.members }
        let variables = keys.flatMap(\.environmentNames)
        #expect(Set(variables).count == variables.count)
        for key in keys { #expect(!key.description.isEmpty, "\(key.name) has no description") }
        for key in ServerConfiguration.definitions {
            #expect(key.environmentNames.contains("ROOFTOP_" + ConfigKey.upperSnake(key.name)))
            #expect(key.environmentNames.contains("PARSE_SERVER_" + ConfigKey.upperSnake(key.name)))
        }
        #expect(ServerConfiguration.definition("databaseURL")?.environmentNames.contains("ROOFTOP_DATABASE_URL") == true)
        #expect(ConfigKey.upperSnake("restAPIKey") == "REST_API_KEY")
        #expect(ConfigKey.upperSnake("masterKeyIps") == "MASTER_KEY_IPS")
        // An acronym keeps its plural: not AUTH_REDIRECT_UR_IS, which is still read below it.
        #expect(ConfigKey.upperSnake("authRedirectURIs") == "AUTH_REDIRECT_URIS")
        let uris = try #require(ServerConfiguration.definition("authRedirectURIs"))
        #expect(!uris.environmentNames.contains("ROOFTOP_AUTH_REDIRECT_UR_IS"))
        #expect(uris.variablesRead.first == "ROOFTOP_AUTH_REDIRECT_UR_IS")
        #expect(uris.variablesRead.last == "ROOFTOP_AUTH_REDIRECT_URIS")
        #expect(ServerConfiguration.definition("mail")?.members.first { $0.name == "mail.caFile" }?.environmentNames.last == "ROOFTOP_MAIL_CA_FILE")
    }

    @Test func defaultsComeFromTheLayers() {
        // ServerConfiguration writes no default of its own for what the layers hold.
        let configuration = ServerConfiguration()
        #expect(configuration.http(appId: "a", masterKey: "m").maxBodySize == 1 << 20)
        #expect(configuration.services.objectIdSize == 10)
        #expect(configuration.accounts.sessionLength == 31_536_000)
    }

    /// The options of the commands that read the configuration are the table's flags, no more
    /// and no fewer, each with the key's description, default and variable as its help.
    @Test func flagsComeFromTheTable() throws {
        let help = ConfigOptions.helpMessage(columns: 10_000)
        let named = help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }).filter { $0.hasPrefix("--") }
        let options = Set(named.map(String.init)).subtracting(["--help"])
        let flags = Set(ConfigFlags.keys.compactMap(\.flag))
        #expect(options == flags.union(ConfigFlags.notKeys))
        #expect(flags == ["--host", "--port", "--data-dir", "--database-url"])
        for key in ConfigFlags.keys { #expect(help.contains(ConfigFlags.text(key)), "\(key.name)'s flag has its own help") }
        #expect(
            ConfigFlags.text(try #require(ServerConfiguration.definition("dataDir")))
                == "Data directory (default ./rooftop-data; environment ROOFTOP_DATA_DIR).")
        #expect(DataDirectoryOption.helpMessage(columns: 10_000).contains("Data directory (default ./rooftop-data; environment ROOFTOP_DATA_DIR)."))
        // Every flag reaches its key: given all of them, each key has a value.
        let all = try ConfigOptions.parse(["--host", "::1", "--port", "81", "--data-dir", "/d", "--database-url", "postgres://h/db"])
        #expect(Set(all.flagValues.keys) == Set(ConfigFlags.keys.map(\.name)))
        #expect(ConfigReference.markdown().contains("| `port` | `ROOFTOP_PORT` | `--port` | `1337` |"))
    }
}
