import ArgumentParser
import Foundation
import RooftopCore

/// The command-line flags of the configuration table. A key that can be set by a flag says so
/// (`flag: "--port"`); the option's name, help text and default come from the key here, and
/// `ConfigOptions.flagValues` hands the parsed values to the same `apply` as the file and the
/// environment. ArgumentParser needs one stored `@Option` per flag, so the options stay declared
/// in `ConfigOptions`; `ConfigFlagsTests` checks that they and the table name the same flags.
package enum ConfigFlags {
    /// The keys with a flag, in the table's order.
    package static var keys: [ConfigKey] { ServerConfiguration.definitions.filter { $0.flag != nil } }

    /// The options that are not one key's: `--config` names the file the keys come from, `--set`
    /// sets any key by name.
    package static let notKeys: Set<String> = ["--config", "--set"]

    /// The long name of `key`'s flag. A key without one gets its name in kebab case, so the
    /// option still parses and the drift test names the missing `flag:`.
    static func name(_ key: String) -> NameSpecification {
        let flag = ServerConfiguration.definition(key)?.flag ?? ConfigKey.upperSnake(key).lowercased().replacingOccurrences(of: "_", with: "-")
        return .customLong(String(flag.drop(while: { $0 == "-" })))
    }

    /// The help of `key`'s flag: the table's description, default and environment variable.
    static func help(_ key: String) -> ArgumentHelp {
        guard let definition = ServerConfiguration.definition(key) else { return ArgumentHelp("") }
        return ArgumentHelp(text(definition))
    }

    /// `--data-dir`'s text: "Data directory (default ./rooftop-data; environment ROOFTOP_DATA_DIR)."
    package static func text(_ key: ConfigKey) -> String {
        let description = plain(key.description)
        let variable = key.environmentNames.first(where: { $0.hasPrefix("ROOFTOP_") }) ?? ""
        let value = key.show(ServerConfiguration())
        let defaultText = key.defaultNote.map(plain) ?? value.stringValue ?? (value.isNull ? "unset" : JSONWriter.string(value, sortedKeys: true))
        return description.prefix(1).uppercased() + description.dropFirst() + " (default \(defaultText); environment \(variable))."
    }

    /// Markdown of the reference made plain for a terminal: no backticks, links as their text.
    static func plain(_ markdown: String) -> String {
        var text = markdown.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "\\|", with: "|")
        while let open = text.range(of: "]("), let close = text.range(of: ")", range: open.upperBound..<text.endIndex),
            let start = text.range(of: "[", options: .backwards, range: text.startIndex..<open.lowerBound)
        {
            let label = text[start.upperBound..<open.lowerBound]
            text.replaceSubrange(start.lowerBound..<close.upperBound, with: label)
        }
        return text
    }
}

/// `--data-dir`, the one definition every command that reads the data directory shares.
package struct DataDirectoryOption: ParsableArguments {
    @Option(name: ConfigFlags.name("dataDir"), help: ConfigFlags.help("dataDir")) var dataDir: String?

    package init() {}

    /// The flag, else the environment's `dataDir`, else the default: the directory is needed
    /// before the file (which lives in it) is read.
    package func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        dataDir ?? ServerConfiguration.environmentValues(environment)["dataDir"]?.stringValue ?? ServerConfiguration().dataDir
    }
}
