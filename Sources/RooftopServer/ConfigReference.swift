import Foundation
import RooftopCore

/// The configuration reference in docs/configuration.md, generated from the key definitions.
package enum ConfigReference {
    package static let begin = "<!-- BEGIN GENERATED KEYS: swift run rooftop config docs --update docs/configuration.md -->"
    package static let end = "<!-- END GENERATED KEYS -->"

    /// The generated section, markers included.
    package static func markdown() -> String {
        let defaults = ServerConfiguration()
        var lines = [begin, "", "| key | environment | flag | default | meaning |", "|---|---|---|---|---|"]
        // An object's members follow it, each a row of its own.
        for key in ServerConfiguration.definitions.flatMap({ [$0] + $0.members }) {
            var name = "`\(key.name)`"
            if !key.aliases.isEmpty { name += " (or " + key.aliases.map { "`\($0)`" }.joined(separator: ", ") + ")" }
            let variables = key.environmentNames.filter { $0.hasPrefix("ROOFTOP_") }.map { "`\($0)`" }.joined(separator: ", ")
            let meaning = key.kind.rawValue + (key.secret ? ", secret" : "") + ": " + key.description
            let flag = key.flag.map { "`\($0)`" } ?? ""
            lines.append("| \(name) | \(variables) | \(flag) | \(defaultText(key, defaults)) | \(cell(meaning)) |")
        }
        lines += ["", end]
        return lines.joined(separator: "\n")
    }

    /// `document` with its generated section replaced by the current one; nil without markers.
    package static func updating(_ document: String) -> String? {
        guard let start = document.range(of: begin), let stop = document.range(of: end, range: start.upperBound..<document.endIndex) else {
            return nil
        }
        return document.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: markdown())
    }

    private static func defaultText(_ key: ConfigKey, _ defaults: ServerConfiguration) -> String {
        if let note = key.defaultNote { return cell(note) }
        let value = key.show(defaults)
        return value.isNull ? "unset" : cell("`" + JSONWriter.string(value, sortedKeys: true) + "`")
    }

    /// Text safe inside a table cell.
    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
