import Crypto
public import RooftopServices

/// `r:` + 32 lowercase hex digits from the system CSPRNG; stored as hex SHA-256.
public struct SessionTokens: SessionTokenSource {
    /// Creates the source.
    public init() {}

    /// A new token, 128 random bits.
    public func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var hex = "r:"
        for _ in 0..<16 { hex += Self.hex(UInt8.random(in: .min ... .max, using: &generator)) }
        return hex
    }

    /// Lowercase hex SHA-256 of the token's UTF-8 bytes.
    ///
    /// Every signed-in request computes one, so hex is written byte by byte into one buffer
    /// (the `Character`-based form was 7 % of a `/users/me`'s CPU).
    public func digest(_ token: String) -> String {
        let hash = SHA256.hash(data: Array(token.utf8))
        return String(unsafeUninitializedCapacity: 64) { buffer in
            var index = 0
            for byte in hash {
                buffer[index] = Self.hexDigits[Int(byte >> 4)]
                buffer[index + 1] = Self.hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func hex(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
