import ArgumentParser
import Foundation
import Testing

@testable import RooftopServer

/// `rooftop serve`'s banner: the console's address from the configuration and, while it has no
/// admin, a command that creates one as printed.
@Suite struct StartupBannerTests {
    private let keys = KeyFile(appId: "app", masterKey: "master", generated: false)

    @Test func bannerNamesTheConsoleAndHowToCreateTheFirstAdmin() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(["console": ["path": "/admin"]], source: "test")
        let banner = StartupBanner(configuration: configuration, keys: keys, port: 4000, interactive: false, createAdmin: "rooftop admin create NAME")
        #expect(
            banner.lines == [
                "Rooftop is listening at http://127.0.0.1:4000/parse (data in ./rooftop-data, development profile)",
                "Application id: app (keys in ./rooftop-data/keys.json or your configuration)",
                "Admin console: http://127.0.0.1:4000/admin",
                "  It has no admin yet; create the first one (it asks for a password) with:",
                "    rooftop admin create NAME",
                "Try it:",
                "  curl -X POST -H 'X-Parse-Application-Id: app' -H 'Content-Type: application/json' \\",
                "       -d '{\"title\":\"hello\"}' http://127.0.0.1:4000/parse/classes/Note",
            ])
        let withAdmin = StartupBanner(configuration: configuration, keys: keys, port: 4000, interactive: false)
        #expect(withAdmin.lines.contains("Admin console: http://127.0.0.1:4000/admin") && !withAdmin.lines.joined().contains("admin create"))
        try configuration.apply(["console": ["enabled": false]], source: "test")
        let off = StartupBanner(configuration: configuration, keys: keys, port: 4000, interactive: false, createAdmin: "rooftop admin create NAME")
        #expect(!off.lines.joined().contains("console") && !off.lines.joined().contains("admin create"))
    }

    /// The command carries what `serve` was told about where its data is, quoted for a shell.
    @Test func createAdminCommandWorksAsPrinted() throws {
        let plain = try ConfigOptions.parse([])
        #expect(StartupBanner.createAdminCommand(plain, ServerConfiguration()) == "rooftop admin create NAME")
        let dir = try TemporaryDirectory()
        try dir.write("my config.json", #"{"port":2000}"#)
        let options = try ConfigOptions.parse([
            "--data-dir", dir.path, "--config", dir.path + "/my config.json", "--database-url", "postgres://u:secret@db/rooftop",
        ])
        var configuration = ServerConfiguration()
        configuration.dataDir = dir.path
        #expect(
            StartupBanner.createAdminCommand(options, configuration)
                == "rooftop admin create NAME --data-dir \(dir.path) --config '\(dir.path)/my config.json' --database-url "
                + "postgres://u:%3Credacted%3E@db/rooftop")
        configuration.dataDir = "/srv/it's here"
        #expect(
            StartupBanner.createAdminCommand(try ConfigOptions.parse([]), configuration)
                == #"rooftop admin create NAME --data-dir '/srv/it'\''s here'"#)
    }
}
