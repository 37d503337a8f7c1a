import ArgumentParser
import Foundation
import RooftopCore

/// `rooftop config print|docs`: the effective configuration, and the reference of every key.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the configuration.", subcommands: [Print.self, Docs.self])

    struct Print: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the effective configuration with secrets redacted.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let configuration = try options.load(environment: ProcessInfo.processInfo.environment)
            print(try configuration.printout())
        }
    }

    struct Docs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the configuration reference (Markdown) generated from the key definitions.")
        @Option(help: "Replace the generated section of this Markdown file instead of printing it.") var update: String?

        func run() async throws {
            guard let update else {
                print(ConfigReference.markdown())
                return
            }
            let document = try String(contentsOfFile: update, encoding: .utf8)
            guard let updated = ConfigReference.updating(document) else {
                throw CommandFailure("\(update) has no \(ConfigReference.begin) … \(ConfigReference.end) section", status: CommandFailure.dataError)
            }
            try updated.write(toFile: update, atomically: true, encoding: .utf8)
        }
    }
}

extension ServerConfiguration {
    /// What `config print` shows: every key with the value `serve` would use, including the keys
    /// generated into `keys.json` (read, never created here: printing must not mint keys).
    package func printout() throws -> String {
        var shown = self
        let stored = try KeyFile.stored(in: dataDir)
        shown.appId = appId ?? stored.appId
        shown.masterKey = masterKey ?? stored.masterKey
        var json = shown.redacted.objectValue ?? [:]
        for name in ["appId", "masterKey"] where json[name]?.isNull ?? true { json[name] = "<generated on first serve>" }
        return PrettyJSON.string(.object(json))
    }
}
