/// The names a file store accepts: an allow-list, so that no name can mean anything but one file
/// directly in its store (no `/`, `\`, `..`, NUL or control character, no leading dot).
package enum StoredFileName {
    /// The longest stored name: 32 random characters, `_`, and Parse's 128-character limit on
    /// the original name, with room to spare.
    package static let maxLength = 200

    /// Whether `name` may be stored: 1 to `maxLength` ASCII characters from letters, digits and
    /// `@ . ~ _ -` and space, starting with a letter, digit or `_` (Parse's rule for names).
    package static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= maxLength, isLeading(first) else { return false }
        return bytes.allSatisfy(isAllowed)
    }

    static func isLeading(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_")
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "@.~_- ".utf8.contains(byte)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
