import Foundation
import RooftopCore
import RooftopCrypto
import Testing

/// RFC 6238's SHA-1 vectors (Appendix B), cut to 6 digits as the console uses them.
@Suite struct TOTPTests {
    let secret = Array("12345678901234567890".utf8)

    @Test(arguments: [
        (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238Vectors(time: Int64, expected: String) {
        #expect(TOTP.code(secret: secret, step: TOTP.step(atSeconds: time), digits: 8) == expected)
        #expect(TOTP.code(secret: secret, step: TOTP.step(atSeconds: time)) == String(expected.suffix(6)))
    }

    @Test func oneStepEitherSideIsAccepted() {
        let now: Int64 = 1_111_111_111
        let step = TOTP.step(atSeconds: now)
        for offset in [-1, 0, 1] as [Int64] {
            #expect(TOTP.matchingStep(secret: secret, code: TOTP.code(secret: secret, step: step + offset), atSeconds: now) == step + offset)
        }
        for offset in [-2, 2] as [Int64] {
            #expect(TOTP.matchingStep(secret: secret, code: TOTP.code(secret: secret, step: step + offset), atSeconds: now) == nil)
        }
    }

    @Test(arguments: ["", "12345", "1234567", "12345a", "１２３４５６", "123 45", "12345\u{0}"])
    func malformedCodesMatchNothing(code: String) {
        #expect(TOTP.matchingStep(secret: secret, code: code, atSeconds: 59) == nil)
    }

    @Test func base32RoundTrips() {
        #expect(Base32.encode(secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Base32.decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == secret)
        #expect(Base32.decode("gezd gnbv") == Base32.decode("GEZDGNBV"))
        #expect(Base32.decode("GE1!") == nil)
        let uri = TOTP.uri(secret: secret, account: "ops@example", issuer: "Rooftop Console")
        #expect(uri.hasPrefix("otpauth://totp/Rooftop%20Console:ops%40example?secret=GEZDGNBV"))
    }
}

/// The box second-factor secrets are stored in: AES-256-GCM under keys derived from the server's
/// secrets, the first sealing, all opening.
@Suite struct SecretBoxTests {
    @Test func sealedSecretsOpenOnlyUnderTheirKeysAndUnchanged() throws {
        let secret: [UInt8] = Array("a TOTP secret of twenty".utf8)
        let box = SecretBox(secrets: ["current"])
        let sealed = try box.seal(secret)
        #expect(sealed.hasPrefix("v1.") && !sealed.contains(Base32.encode(secret)))
        #expect(box.open(sealed)?.plaintext == secret && box.open(sealed)?.current == true)
        // Fresh nonces: the same secret seals differently each time.
        #expect(try box.seal(secret) != sealed)
        // Rotation: a new key first still opens what the old one sealed, and says it is old.
        let rotated = SecretBox(secrets: ["next", "current"])
        #expect(rotated.open(sealed)?.plaintext == secret && rotated.open(sealed)?.current == false)
        #expect(SecretBox(secrets: ["other"]).open(sealed) == nil)
        // Any change to the text is refused, never a wrong plaintext.
        var characters = Array(sealed)
        for index in stride(from: 12, to: characters.count, by: 7) {
            let original = characters[index]
            characters[index] = original == "A" ? "B" : "A"
            #expect(box.open(String(characters)) == nil)
            characters[index] = original
        }
    }

    /// Whatever a database or an attacker puts there, opening answers nil and never traps.
    @Test func garbageNeverOpens() {
        let box = SecretBox(secrets: ["current"])
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("v1.ABCDEFGHIJKLMNOPQRSTUVWXYZ234567abcdef=\u{0}é-")
        for length in 0..<300 {
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            #expect(box.open(text) == nil)
            #expect(box.open("v1." + text) == nil)
        }
        #expect(box.open("v1.00000000.") == nil)
        #expect(box.open("v1..AAAA") == nil)
    }

    /// Recovery codes: 120 random bits in six groups of four base32 characters.
    @Test func recoveryCodesAreLongAndRandom() {
        let codes = (0..<50).map { _ in TOTPCodes().newRecoveryCode() }
        #expect(Set(codes).count == 50)
        for code in codes {
            let groups = code.split(separator: "-")
            #expect(groups.count == 6 && groups.allSatisfy { $0.count == 4 })
            #expect(Base32.decode(code.replacingOccurrences(of: "-", with: ""))?.count == 15)
        }
    }
}
