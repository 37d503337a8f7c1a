import Crypto
import RooftopServices

/// HMAC-SHA-256 for signed file URLs, keyed with HKDF-SHA-256 over a secret every node shares
/// (`fileKey`, else the master key) and a fixed label: the master key itself never signs
/// anything, and changing the secret invalidates every URL handed out.
package struct FileURLKey: FileURLMAC {
    let key: SymmetricKey

    /// The key derived from `secret`.
    package init(secret: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Array(secret.utf8)), salt: Array("rooftop".utf8), info: Array("rooftop file URL signing v1".utf8),
            outputByteCount: 32)
    }

    /// HMAC-SHA-256 of `message`.
    package func mac(_ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    /// swift-crypto's comparison, in constant time.
    package func isValid(_ mac: [UInt8], for message: [UInt8]) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: key)
    }
}
