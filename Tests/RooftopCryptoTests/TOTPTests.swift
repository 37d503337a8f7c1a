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
