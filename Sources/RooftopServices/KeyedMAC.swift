/// A keyed MAC (HMAC-SHA-256 in RooftopCrypto, the one target that sees a cryptographic
/// library): what signed file URLs and the console's sign-in form tokens are signed with.
package protocol KeyedMAC: Sendable {
    /// The MAC of `message`.
    func mac(_ message: [UInt8]) -> [UInt8]
    /// Whether `mac` is `message`'s, compared in constant time.
    func isValid(_ mac: [UInt8], for message: [UInt8]) -> Bool
}

/// A MAC as it travels in URLs and forms: lowercase hexadecimal, one spelling only.
package enum MACHex {
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` in lowercase hexadecimal.
    package static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// The bytes of exactly 64 lowercase hexadecimal digits (an HMAC-SHA-256); `nil` for anything
    /// else (upper case, another length), which is refused rather than normalized.
    package static func bytes(_ text: Substring) -> [UInt8]? {
        let given = Array(text.utf8)
        guard given.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = digits.firstIndex(of: given[index]), let low = digits.firstIndex(of: given[index + 1]) else { return nil }
            bytes.append(UInt8(high << 4 | low))
        }
        return bytes
    }
}
