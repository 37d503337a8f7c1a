import RooftopCore

/// Signed, expiring file URLs (`fileAccess: signed`): `?expires=<unix seconds>&signature=<hex
/// HMAC-SHA-256 of the name and the expiry>`.
///
/// The server signs every file URL it renders into an answer, and an answer only holds objects
/// the caller may read, so a signed URL goes only to callers who can read an object that refers
/// to the file. Every node derives the same key from the same secret, so any node accepts
/// another's URLs.
package struct FileURLSigning: Sendable {
    let key: any KeyedMAC
    /// How long a signed URL works, in seconds.
    package let lifetime: Int64
    let clock: any ServerClock

    /// Signing with `key`, URLs valid for `lifetime` seconds from `clock`'s now.
    package init(key: any KeyedMAC, lifetime: Int64, clock: any ServerClock) {
        self.key = key
        self.lifetime = lifetime
        self.clock = clock
    }

    /// The query string that signs `name`'s URL until now + `lifetime`: `expires=…&signature=…`.
    package func query(for name: String) -> String {
        let expires = clock.now().millisecondsSince1970 / 1000 + lifetime
        return "expires=\(expires)&signature=\(MACHex.text(key.mac(Self.message(name, expires))))"
    }

    /// Whether `query` (a URL's raw query string) signs `name` and has not expired. Strict: the
    /// two parameters exactly once each, the expiry in decimal digits, the signature in 64
    /// lowercase hexadecimal digits — any other spelling (leading zeros, upper case,
    /// percent-encoded, base64) is refused rather than normalized.
    package func isValid(query: String?, for name: String) -> Bool {
        guard let query, let (expires, signature) = Self.parameters(query) else { return false }
        guard expires > clock.now().millisecondsSince1970 / 1000, let mac = MACHex.bytes(Substring(signature)) else { return false }
        return key.isValid(mac, for: Self.message(name, expires))
    }

    /// `expires` and `signature` from a raw query string; `nil` when either is missing,
    /// repeated or malformed.
    static func parameters(_ query: String) -> (Int64, String)? {
        var expires: Int64?
        var signature: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let value = String(parts[1])
            switch parts[0] {
            case "expires":
                // One spelling per value: digits only, no leading zero.
                guard expires == nil, !value.isEmpty, value.utf8.count <= 12, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    !value.hasPrefix("0"),
                    let seconds = Int64(value)
                else { return nil }
                expires = seconds
            case "signature":
                guard signature == nil else { return nil }
                signature = value
            default: continue
            }
        }
        guard let expires, let signature else { return nil }
        return (expires, signature)
    }

    /// What is signed: a label (so the key signs nothing else by accident), the name and the expiry.
    static func message(_ name: String, _ expires: Int64) -> [UInt8] {
        Array("rooftop-file-url\n\(name)\n\(expires)".utf8)
    }
}
