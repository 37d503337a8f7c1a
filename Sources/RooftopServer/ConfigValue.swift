import Foundation
package import RooftopCore

/// One configuration value and where it came from.
///
/// The only place that says what a string, an integer, a boolean, a list and an object are, so
/// the file, the environment, the flags and every nested option agree (`"1"` is true everywhere).
/// The environment gives every value as text; the file gives JSON.
package struct ConfigValue: Sendable {
    /// The value as given.
    package let json: JSON
    /// Where it came from: a file's path, `environment` or `flags`.
    package let source: String
    /// Its dotted name, e.g. `mail.port`, for messages.
    package let key: String

    package init(_ json: JSON, source: String, key: String) {
        self.json = json
        self.source = source
        self.key = key
    }

    /// `problem` about this value, naming its source and key.
    package func error(_ problem: String) -> ConfigError { ConfigError("\(source): \(key) \(problem)") }

    /// Throws `problem` unless `condition` holds.
    package func require(_ condition: Bool, _ problem: @autoclosure () -> String) throws {
        if !condition { throw error(problem()) }
    }

    /// A nested member, named `key.name` in messages.
    package func member(_ name: String, _ value: JSON) -> ConfigValue { ConfigValue(value, source: source, key: "\(key).\(name)") }

    /// Text; an integer given as a number is taken as its digits (`"appId": 12`).
    package func string() throws -> String {
        if let text = json.stringValue { return text }
        if let n = json.intValue { return String(n) }
        throw error("must be a string")
    }

    /// An integer, as a number or as its digits.
    package func int() throws -> Int {
        guard let n = json.intValue ?? json.stringValue.flatMap({ Int($0) }) else { throw error("must be an integer") }
        return n
    }

    /// An integer in `range`.
    package func int(in range: ClosedRange<Int>, unit: String = "") throws -> Int {
        let n = try int()
        try require(range.contains(n), "must be between \(range.lowerBound) and \(range.upperBound)\(unit)")
        return n
    }

    /// `true`/`false`, or their text `"true"`/`"false"`/`"1"`/`"0"` (environment variables).
    package func bool() throws -> Bool {
        if case .bool(let b) = json { return b }
        switch json.stringValue {
        case "true", "1": return true
        case "false", "0": return false
        default: throw error("must be true or false")
        }
    }

    /// Strings: a JSON array of them, as JSON or as its text (the environment's
    /// `["10.0.0.0/8","127.0.0.1"]`), or comma-separated text (`a, b`). Text that opens with `[`
    /// but is not a JSON array (`[::1]:8080`) is comma-separated text.
    package func list() throws -> [String] {
        if let items = json.arrayValue ?? arrayText {
            return try items.enumerated().map { index, item in try member("\(index)", item).string() }
        }
        return try string().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Text that is a JSON array (`["a","b"]`), as its items.
    private var arrayText: [JSON]? {
        guard let text = json.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), text.hasPrefix("[") else { return nil }
        return (try? JSONParser.parse(text))?.arrayValue
    }

    /// An object, or its JSON text (the environment's form of a nested option).
    package func object() throws -> [String: JSON] {
        guard let object = json.objectValue ?? parsedText?.objectValue else { throw error("must be an object") }
        return object
    }

    /// An array, or its JSON text.
    package func array() throws -> [JSON] {
        guard let items = json.arrayValue ?? parsedText?.arrayValue else { throw error("must be an array") }
        return items
    }

    private var parsedText: JSON? { json.stringValue.flatMap { try? JSONParser.parse($0) } }

    /// An unknown member of this nested option, with the nearest known name as a hint.
    package func unknownMember(_ name: String, known: [String]) -> ConfigError {
        ConfigError("\(source): unknown key \(key).\(name)\(Suggestion.hint(for: name, among: known))")
    }
}

/// A configuration problem, reported to the operator.
package struct ConfigError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
