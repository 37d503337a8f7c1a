import Crypto
import RooftopCore
import RooftopServices

/// `r:` + 32 lowercase hex digits from the system CSPRNG; stored as hex SHA-256.
package struct SessionTokens: SessionTokenSource {
    /// Creates the source.
    package init() {}

    /// A new token, 128 random bits.
    package func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return "r:" + Self.hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Lowercase hex SHA-256 of the token's UTF-8 bytes.
    package func digest(_ token: String) -> String {
        Self.hex(Array(SHA256.hash(data: Array(token.utf8))))
    }

    /// 32 random bytes, base64url without padding.
    package func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// 32 characters of base62 from the system CSPRNG.
    package func newLinkToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// 16 random bytes as lowercase hex.
    package func newFilePrefix() -> String {
        var generator = SystemRandomNumberGenerator()
        return Self.hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url (unpadded) SHA-256 of the verifier's UTF-8 bytes.
    package func pkceChallenge(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`, written into one buffer: every signed-in request computes a
    /// digest (building it from `Character`s was 7 % of a `/users/me`'s CPU).
    static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = hexDigits[Int(byte >> 4)]
                buffer[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
