package import RooftopCore

/// `POST /events/:name` (`AppOpened` and custom events the SDKs send): checked, then dropped.
///
/// Rooftop stores no analytics; an SDK's event call must still succeed, as on Parse Server,
/// and a malformed one still gets a clear error.
package enum AnalyticsEvents {
    /// The most dimensions one event may carry.
    package static let maxDimensions = 32
    /// The longest event name, dimension name or dimension value.
    package static let maxLength = 256

    /// Checks one event: its name (letters, digits, `_`, `-`, starting with a letter or digit, at
    /// most 64 characters), `dimensions` (string → string), `at` (a Date or ISO string) and
    /// `push_hash` (a string). Other body fields are ignored, as Parse Server ignores the event.
    package static func check(name: String, body: [String: JSON]) throws(ParseError) {
        guard (1...64).contains(name.utf8.count), let first = name.utf8.first, isAlphanumeric(first),
            name.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else {
            throw ParseError(.invalidEventName, "Event names are 1 to 64 letters, digits, underscores and hyphens.")
        }
        if let dimensions = body["dimensions"], !dimensions.isNull {
            guard case .object(let pairs) = dimensions else { throw ParseError(.incorrectType, "dimensions must be an object of strings.") }
            guard pairs.count <= maxDimensions else { throw ParseError(.validationError, "An event has at most \(maxDimensions) dimensions.") }
            for (key, value) in pairs {
                guard case .string(let text) = value else { throw ParseError(.incorrectType, "dimensions must be an object of strings.") }
                guard isBounded(key), isBounded(text) else {
                    throw ParseError(.validationError, "Dimension names and values are at most \(maxLength) printable characters.")
                }
            }
        }
        if let at = body["at"], !at.isNull {
            let iso = at.stringValue ?? (at["__type"] == "Date" ? at["iso"]?.stringValue : nil)
            guard let iso, ParseDate(iso: iso) != nil else { throw ParseError(.incorrectType, "at must be a Date.") }
        }
        if let hash = body["push_hash"], !hash.isNull {
            guard case .string(let text) = hash, isBounded(text) else {
                throw ParseError(.incorrectType, "push_hash must be a string of at most \(maxLength) characters.")
            }
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isBounded(_ text: String) -> Bool {
        text.count <= maxLength && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
