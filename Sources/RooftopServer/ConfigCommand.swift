import ArgumentParser
import Foundation
import RooftopCore

/// `rooftop config print`: the effective configuration, secrets redacted.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Show the configuration.", subcommands: [Print.self])

    struct Print: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the effective configuration with secrets redacted.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let configuration = try options.load(environment: ProcessInfo.processInfo.environment)
            print(JSONWriter.string(configuration.redacted, sortedKeys: true))
        }
    }
}
