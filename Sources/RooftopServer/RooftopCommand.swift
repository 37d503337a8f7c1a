package import ArgumentParser
import Foundation
import RooftopCore
import RooftopServices

/// `rooftop`: the server and its operator tools (run by the `rooftop` executable, RooftopMain).
package struct RooftopCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "rooftop",
        abstract: "A Parse-compatible backend for app users and their data.",
        // On the root, so every subcommand answers `--version` too.
        version: RooftopVersion.current,
        subcommands: [
            ServeCommand.self, ConfigCommand.self, OutboxCommand.self, AuditCommand.self, ExportCommand.self, ImportCommand.self,
            BackupCommand.self, ExplainCommand.self, FilesCommand.self, AdminCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)

    package init() {}
}

/// Options shared by commands that read the configuration. Each option but `--config` is a
/// key's flag (`ConfigFlags`): its name and help come from the table, and `flagValues` maps the
/// parsed values to their keys.
package struct ConfigOptions: ParsableArguments {
    @Option(name: ConfigFlags.name("host"), help: ConfigFlags.help("host")) var host: String?
    @Option(name: ConfigFlags.name("port"), help: ConfigFlags.help("port")) var port: Int?
    @OptionGroup var location: DataDirectoryOption
    @Option(help: "Configuration file (default <data-dir>/rooftop.json).") var config: String?
    @Option(name: ConfigFlags.name("databaseURI"), help: ConfigFlags.help("databaseURI")) var databaseURL: String?
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Any configuration key or member as name=value (e.g. mail.host=smtp.example.com), read as its environment variable would be; repeatable, over the other flags.",
            valueName: "name=value"))
    var settings: [String] = []

    /// The configuration from the process's environment, with its data directory created.
    func loadForServing() throws -> ServerConfiguration {
        let configuration = try load(environment: ProcessInfo.processInfo.environment)
        try DataDirectory.prepare(configuration.dataDir)
        return configuration
    }

    package init() {}

    /// The flags given, by key name: the one place a parsed option meets the table.
    package var flagValues: [String: JSON] {
        var values: [String: JSON] = [:]
        values["host"] = host.map(JSON.string)
        values["port"] = port.map { .number(Double($0)) }
        values["dataDir"] = location.dataDir.map(JSON.string)
        values["databaseURI"] = databaseURL.map(JSON.string)
        return values
    }

    /// Defaults < file < environment < flags (`--set` last).
    package func load(environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let dir = location.resolved(environment: environment)  // before the file, which lives in it
        let file = config ?? dir + "/rooftop.json"
        if let values = try ConfigFile.read(file, required: config != nil) { try configuration.apply(values, source: file) }
        try configuration.applyEnvironment(environment)
        // The directory the file was read from, even when only the environment named it.
        try configuration.apply(flagValues.merging(["dataDir": .string(dir)]) { flag, _ in flag }, source: "flags")
        try configuration.applySettings(settings)
        return configuration
    }
}
