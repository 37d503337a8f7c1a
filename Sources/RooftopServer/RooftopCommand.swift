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

/// Options shared by commands that read the configuration.
package struct ConfigOptions: ParsableArguments {
    @Option(help: "Address to listen on (default \(ServerConfiguration().host)).") var host: String?
    @Option(help: "Port to listen on (default \(ServerConfiguration().port)).") var port: Int?
    @Option(name: .customLong("data-dir"), help: "Data directory (default \(ServerConfiguration().dataDir)).") var dataDir: String?
    @Option(help: "Configuration file (default <data-dir>/rooftop.json).") var config: String?
    @Option(name: .customLong("database-url"), help: "PostgreSQL (postgres://user:password@host:port/db) instead of SQLite.")
    var databaseURL: String?

    /// The configuration from the process's environment, with its data directory created.
    func loadForServing() throws -> ServerConfiguration {
        let configuration = try load(environment: ProcessInfo.processInfo.environment)
        try DataDirectory.prepare(configuration.dataDir)
        return configuration
    }

    package init() {}

    /// Defaults < file < environment < flags.
    package func load(environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let env = ServerConfiguration.environmentValues(environment)  // for dataDir, before the file
        let dir = dataDir ?? env["dataDir"]?.stringValue ?? configuration.dataDir
        let file = config ?? dir + "/rooftop.json"
        if let values = try ConfigFile.read(file, required: config != nil) { try configuration.apply(values, source: file) }
        try configuration.applyEnvironment(environment)
        var flags: [String: JSON] = ["dataDir": .string(dir)]
        if let host { flags["host"] = .string(host) }
        if let port { flags["port"] = .number(Double(port)) }
        if let databaseURL { flags["databaseURI"] = .string(databaseURL) }
        try configuration.apply(flags, source: "flags")
        return configuration
    }
}
