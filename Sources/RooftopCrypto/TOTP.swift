import Crypto
import RooftopCore
import RooftopServices

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 6 digits, 30-second
/// steps — what every authenticator app reads from an `otpauth://` URI.
package enum TOTP {
    /// Seconds per step.
    package static let period: Int64 = 30

    /// A new 160-bit secret (RFC 4226 recommends the HMAC's output length).
    package static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The step a time falls in (seconds since 1970).
    package static func step(atSeconds seconds: Int64) -> Int64 { seconds / period }

    /// The code of `step`, `digits` long, zero-padded (RFC 4226 §5.3's dynamic truncation).
    package static func code(secret: [UInt8], step: Int64, digits: Int = 6) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The step within ±1 of `now`'s whose code is `code` (RFC 6238 §5.2's allowance for clock
    /// drift), compared in constant time; nil when none matches.
    package static func matchingStep(secret: [UInt8], code: String, atSeconds now: Int64) -> Int64? {
        let given = Array(code.utf8)
        guard given.count == 6, given.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var found: Int64?
        let current = step(atSeconds: now)
        for candidate in [current - 1, current, current + 1] {
            let matches = ConstantTime.equals(self.code(secret: secret, step: candidate).utf8, given)
            if matches && found == nil { found = candidate }
        }
        return found
    }

    /// The `otpauth://totp/` URI an authenticator app scans.
    package static func uri(secret: [UInt8], account: String, issuer: String) -> String {
        func escape(_ text: String) -> String {
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
            return text.utf8.map { allowed.contains($0) ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded }
                .joined()
        }
        return "otpauth://totp/\(escape(issuer)):\(escape(account))?secret=\(Base32.encode(secret))&issuer=\(escape(issuer))"
            + "&algorithm=SHA1&digits=6&period=30"
    }
}

extension String {
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}

/// The one-time codes the account and console use cases check (their port in RooftopServices),
/// made here because their secrets and HMACs are this target's to make.
package struct TOTPCodes: OneTimeCodes {
    /// Creates the code source.
    package init() {}

    /// A new 160-bit secret.
    package func newSecret() -> [UInt8] { TOTP.newSecret() }

    /// The step within ±1 of `now` whose code is `code`, compared in constant time.
    package func matchingStep(secret: [UInt8], code: String, atSeconds now: Int64) -> Int64? {
        TOTP.matchingStep(secret: secret, code: code, atSeconds: now)
    }

    /// 15 random bytes (120 bits) in base32, lowercase, in groups of four: `abcd-efgh-…`.
    package func newRecoveryCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = Array(Base32.encode((0..<15).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).lowercased())
        return stride(from: 0, to: letters.count, by: 4).map { String(letters[$0..<min($0 + 4, letters.count)]) }.joined(separator: "-")
    }
}
