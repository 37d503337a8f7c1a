import Crypto
import RooftopServices

/// HMAC-SHA-256 keyed with HKDF-SHA-256 over a secret every node shares (the master key, or
/// `fileKey` for file URLs) and a label naming the one purpose the key serves: the secret itself
/// never signs anything, a MAC made for one purpose is worth nothing for another, and changing
/// the secret invalidates everything signed with it.
package struct DerivedMACKey: KeyedMAC {
    let key: SymmetricKey

    /// The key derived from `secret` for `purpose`.
    package init(secret: String, purpose: Purpose) {
        key = Self.derive(secret: secret, purpose: purpose)
    }

    /// The 256-bit key HKDF-SHA-256 derives from `secret` for `purpose` (salt `rooftop`, the
    /// purpose's label as info): the one derivation every server key goes through.
    static func derive(secret: String, purpose: Purpose) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Array(secret.utf8)), salt: Array("rooftop".utf8), info: Array(purpose.rawValue.utf8),
            outputByteCount: 32)
    }

    /// What a key signs; each label is fixed for ever (changing it invalidates what was signed).
    package enum Purpose: String, Sendable {
        /// Signed file URLs (`fileAccess: signed`).
        case fileURLs = "rooftop file URL signing v1"
        /// The console's sign-in form tokens.
        case consoleSignInForm = "rooftop console sign-in form v1"
        /// The AES-GCM key of `SecretBox` (second-factor secrets).
        case secondFactorSecrets = "rooftop second factor secrets v1"
        /// The stand-in credential ids a passkey sign-in offers for a username without passkeys.
        case passkeyDecoys = "rooftop passkey decoys v1"
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
