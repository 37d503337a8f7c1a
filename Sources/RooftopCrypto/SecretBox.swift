import Crypto
import RooftopCore
import RooftopServices

/// AES-256-GCM for secrets the server must read back but never keep in plain text (a second
/// factor's TOTP secret). Keys are derived with HKDF-SHA-256 from secrets every node shares; the
/// first seals, every one opens, and each sealed value names its key (`v1.<key id>.<base32>`),
/// so a new key can be put first while values sealed under the old ones still open — and are
/// sealed again under the new one when next written.
package struct SecretBox: SecretSealing {
    let keys: [(id: String, key: SymmetricKey)]

    /// A box over `secrets`, the first of which seals (at least one; a repeated one is dropped).
    package init(secrets: [String]) {
        var seen: Set<String> = []
        keys = secrets.filter { seen.insert($0).inserted }.map { secret in
            let key = DerivedMACKey.derive(secret: secret, purpose: .secondFactorSecrets)
            // The key's id: 8 hex digits of a hash of the key, which tells nothing of the key.
            let hex = Array("0123456789abcdef")
            let id = key.withUnsafeBytes { bytes in
                String(SHA256.hash(data: Array(bytes)).prefix(4).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] })
            }
            return (id, key)
        }
    }

    /// `plaintext` sealed under the first key, with a fresh nonce.
    package func seal(_ plaintext: [UInt8]) throws -> String {
        guard let (id, key) = keys.first else { throw ParseError.internalError }
        let box = try AES.GCM.seal(plaintext, using: key)
        guard let combined = box.combined else { throw ParseError.internalError }
        return "v1.\(id).\(Base32.encode(Array(combined)))"
    }

    /// The plaintext of `sealed`, and whether the key that opened it is the first; nil when it is
    /// not one of ours, was changed, or was sealed under a key no longer given.
    package func open(_ sealed: String) -> (plaintext: [UInt8], current: Bool)? {
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let index = keys.firstIndex(where: { $0.id == parts[1] }),
            parts[2].allSatisfy({ $0.isASCII && ($0.isUppercase || ("2"..."7").contains($0)) }), let combined = Base32.decode(String(parts[2])),
            combined.count >= 28,
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plaintext = try? AES.GCM.open(box, using: keys[index].key)
        else { return nil }
        return (Array(plaintext), index == 0)
    }
}
