import Crypto
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
        return Self.base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url (unpadded) SHA-256 of the verifier's UTF-8 bytes.
    package func pkceChallenge(_ verifier: String) -> String {
        Self.base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
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
