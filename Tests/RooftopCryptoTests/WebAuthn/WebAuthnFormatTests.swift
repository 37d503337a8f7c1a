import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

// The binary formats' refusals: authenticator data, the attestation object, COSE keys, and the
// CBOR decoder's order-tolerant mode for WebAuthn input.

private typealias F = WebAuthnFixture

@Suite struct AuthenticatorDataTests {
    /// A valid registration's authenticator data and where its parts are.
    static func sample() throws -> (authData: [UInt8], keyOffset: Int) {
        var key = F.passkey()
        let authData = try F.authenticatorData(of: key.register(challenge: F.challenge(1), userHandle: [1]))
        return (authData, 37 + 18 + 32)
    }

    @Test func layoutAndLimits() throws {
        let (authData, keyOffset) = try Self.sample()
        let parsed = try AuthenticatorData.parse(authData, for: .registration)
        #expect(parsed.flags.rawValue == 0x5d)
        #expect(parsed.attestedCredential?.credentialId.count == 32)
        #expect(parsed.attestedCredential?.publicKeyBytes == Array(authData[keyOffset...]))
        #expect(F.registrationReason(authData: authData) == nil)

        // Trailing bytes, without and with ED.
        #expect(F.registrationReason(authData: authData + [0]) == .inconsistentFlags)
        // ED set: extensions must follow, as a map, and nothing after them.
        var withED = authData
        withED[32] |= 0x80
        #expect(F.registrationReason(authData: withED) == .inconsistentFlags)
        let extensions = CBORWriter.encode(CBORWriter.map([(.textString("credProtect"), CBORWriter.int(2))]))
        #expect(F.registrationReason(authData: withED + extensions) == nil)
        #expect(try AuthenticatorData.parse(withED + extensions, for: .registration).extensions?["credProtect"]?.int == 2)
        #expect(F.registrationReason(authData: withED + extensions + [0]) == .inconsistentFlags)
        #expect(F.registrationReason(authData: withED + CBORWriter.encode(.arrayItems([]))) == .malformed)
        #expect(F.registrationReason(authData: withED + [0xa1, 0x61]) == .malformed)
        #expect(F.registrationReason(authData: authData + extensions) == .inconsistentFlags)
        // Deep nesting in the extensions: refused before recursion gets far.
        let deep = [UInt8](repeating: 0x81, count: 40) + [0x00]
        #expect(F.registrationReason(authData: withED + [0xa1, 0x61, 0x78] + deep) == .malformed)
    }

    @Test func truncationsAndLengths() throws {
        let (authData, keyOffset) = try Self.sample()
        for length in [0, 1, 36, 37, 38, 54, 55, 56, keyOffset - 1, keyOffset, keyOffset + 10, authData.count - 1] {
            let reason = F.registrationReason(authData: Array(authData.prefix(length)))
            #expect(reason == .malformed, "length \(length)")
        }
        // The credential ID's length: zero, past the data, over 1023.
        for idLength in [0, 0x3ff + 1, 0xffff, authData.count] {
            var bad = authData
            bad[53] = UInt8(idLength >> 8)
            bad[54] = UInt8(idLength & 0xff)
            #expect(F.registrationReason(authData: bad) == .malformed, "length \(idLength)")
        }
        // A sign-in's authenticator data: exactly 37 bytes unless ED says more.
        var key = F.passkey()
        let signIn = try key.assert(challenge: F.challenge(2)).authenticatorData
        #expect(signIn.count == 37)
        #expect(throws: WebAuthnFormatError(.inconsistentFlags, "1 bytes left over")) { try AuthenticatorData.parse(signIn + [0], for: .assertion) }
        #expect(throws: WebAuthnFormatError.self) { try AuthenticatorData.parse(Array(signIn.dropLast()), for: .assertion) }
    }

    @Test func attestationObjectShape() throws {
        let (authData, _) = try Self.sample()
        func reason(_ object: CBORValue) -> PasskeyRefusal.Reason? {
            var key = F.passkey()
            let registration = key.register(challenge: F.challenge(1), userHandle: [1])
            let input = PasskeyRegistrationInput(clientDataJSON: registration.clientDataJSON, attestationObject: CBORWriter.encode(object))
            return F.reason { () throws(PasskeyRefusal) in try F.verifier.register(input, ceremony: F.ceremony(F.challenge(1))) }
        }
        let fmt = (CBORValue.textString("fmt"), CBORValue.textString("packed"))
        let statement = (CBORValue.textString("attStmt"), CBORWriter.map([(.textString("alg"), CBORWriter.int(-7))]))
        let data = (CBORValue.textString("authData"), CBORValue.byteString(authData))
        // Any format is read as none: its statement is not read.
        #expect(reason(CBORWriter.map([fmt, statement, data])) == nil)
        // Browsers have sent these keys out of canonical order; still one reading, so accepted.
        #expect(reason(CBORWriter.map([data, fmt, statement])) == nil)
        #expect(throws: CBORError.unsortedMapKeys) { try CBORDecoder.decode(CBORWriter.encode(CBORWriter.map([data, fmt, statement]))) }
        // Duplicates are refused in any order, and so are missing, extra and mistyped members.
        #expect(reason(CBORWriter.map([fmt, statement, data, fmt])) == .malformed)
        #expect(reason(CBORWriter.map([fmt, fmt, statement, data])) == .malformed)
        #expect(reason(CBORWriter.map([fmt, data])) == .malformed)
        #expect(reason(CBORWriter.map([fmt, statement, data, (.textString("extra"), .null)])) == .malformed)
        #expect(reason(CBORWriter.map([fmt, statement, data, (CBORWriter.int(1), .null)])) == .malformed)
        #expect(reason(CBORWriter.map([fmt, statement, (.textString("authData"), .textString("x"))])) == .malformed)
        #expect(reason(CBORWriter.map([(.textString("fmt"), CBORWriter.int(1)), statement, data])) == .malformed)
        #expect(reason(CBORWriter.map([(.textString("fmt"), .textString("")), statement, data])) == .malformed)
        #expect(reason(CBORWriter.map([(.textString("fmt"), .textString("none")), (.textString("attStmt"), .arrayItems([])), data])) == .malformed)
        #expect(reason(.arrayItems([])) == .malformed)

        let valid = CBORWriter.encode(CBORWriter.map([fmt, statement, data]))
        for object in [Array(valid.dropLast()), Array(valid.prefix(1)), [], valid + [0], [0xbf] + Array(valid.dropFirst())] {
            #expect(throws: WebAuthnFormatError.self) { try AttestationObject.parse(object) }
        }
        // Over the decoder's 64 KiB input limit.
        let huge = CBORWriter.encode(
            CBORWriter.map([
                fmt, (.textString("attStmt"), CBORWriter.map([(.textString("x5c"), .byteString([UInt8](repeating: 1, count: 70_000)))])), data,
            ]))
        #expect(throws: WebAuthnFormatError(.malformed, "attestation object: tooLarge")) { try AttestationObject.parse(huge) }
    }

    @Test func orderTolerantDecoding() throws {
        let unsorted = hex("a2 03 01 01 02")
        #expect(throws: CBORError.unsortedMapKeys) { try CBORDecoder.decode(unsorted) }
        #expect(try CBORDecoder.decode(unsorted, limits: .webAuthn) == map([(int(3), int(1)), (int(1), int(2))]))
        // Duplicates, adjacent or not, stay refused.
        #expect(throws: CBORError.duplicateMapKey) { try CBORDecoder.decode(hex("a3 03 01 01 02 03 04"), limits: .webAuthn) }
        #expect(throws: CBORError.duplicateMapKey) { try CBORDecoder.decode(hex("a2 61 61 01 61 61 02"), limits: .webAuthn) }
        // Nested maps are checked on their own.
        #expect(try CBORDecoder.decode(hex("a2 02 a1 01 01 01 a1 01 01"), limits: .webAuthn).map?.count == 2)
        // Everything else is as strict as the default.
        #expect(throws: CBORError.nonCanonicalInteger) { try CBORDecoder.decode(hex("a1 18 01 01"), limits: .webAuthn) }
        #expect(throws: CBORError.indefiniteLength) { try CBORDecoder.decode(hex("bf ff"), limits: .webAuthn) }
    }
}

@Suite struct COSEKeyTests {
    static func ec2(_ x: [UInt8], _ y: [UInt8], alg: Int64 = -7, crv: Int64 = 1) -> CBORValue {
        map([(int(1), int(2)), (int(3), int(alg)), (int(-1), int(crv)), (int(-2), bytes(x)), (int(-3), bytes(y))])
    }

    func reason(_ key: CBORValue) -> PasskeyRefusal.Reason? {
        F.reason { () throws(PasskeyRefusal) in try COSEKey(bytes: CBORWriter.encode(key)) }
    }

    @Test func supportedKeysOnly() throws {
        let p256 = try #require(try CBORDecoder.decode(F.passkey(.es256).publicKeyCOSE).map)
        let valid = CBORValue.mapEntries(p256)
        #expect(reason(valid) == nil)
        #expect(try COSEKey(valid).algorithm == .es256)
        let x = try #require(valid[-2]?.bytes)
        let y = try #require(valid[-3]?.bytes)
        // Not on the curve, wrong lengths, wrong curve, algorithm and key type that disagree.
        var offCurve = y
        offCurve[31] ^= 0x01
        #expect(reason(Self.ec2(x, offCurve)) == .unsupportedKey)
        #expect(reason(Self.ec2(x + [0], y)) == .unsupportedKey)
        #expect(reason(Self.ec2(Array(x.dropFirst()), y)) == .unsupportedKey)
        #expect(reason(Self.ec2(x, y, crv: 2)) == .unsupportedKey)
        #expect(reason(Self.ec2(x, y, alg: -35)) == .unsupportedKey)
        #expect(reason(Self.ec2(x, y, alg: -8)) == .unsupportedKey)
        #expect(reason(Self.ec2(x, y, alg: -257)) == .unsupportedKey)
        #expect(reason(map([(int(1), int(2)), (int(-1), int(1)), (int(-2), bytes(x)), (int(-3), bytes(y))])) == .unsupportedKey)
        #expect(reason(map([(int(1), int(4)), (int(3), int(-7))])) == .unsupportedKey)
        #expect(
            reason(map([(int(1), int(2)), (int(3), int(-7)), (int(-1), int(1)), (int(-2), bytes(x)), (int(-3), .bool(true))])) == .unsupportedKey)
        // Duplicate labels and trailing bytes are malformed CBOR, not unsupported keys.
        let duplicate = hex("a3 01 02 03 26 01 02")
        #expect(F.reason { () throws(PasskeyRefusal) in try COSEKey(bytes: duplicate) } == .malformed)
        #expect(F.reason { () throws(PasskeyRefusal) in try COSEKey(bytes: CBORWriter.encode(valid) + [0]) } == .malformed)
        #expect(reason(.arrayItems([])) == .malformed)

        let ed = try CBORDecoder.decode(F.passkey(.eddsa).publicKeyCOSE)
        #expect(try COSEKey(ed).algorithm == .eddsa)
        let edX = try #require(ed[-2]?.bytes)
        let okp = { (x: [UInt8], crv: Int64, alg: Int64) in map([(int(1), int(1)), (int(3), int(alg)), (int(-1), int(crv)), (int(-2), bytes(x))]) }
        #expect(reason(okp(edX, 6, -8)) == nil)
        #expect(reason(okp(Array(edX.dropLast()), 6, -8)) == .unsupportedKey)
        #expect(reason(okp(edX + [0], 6, -8)) == .unsupportedKey)
        #expect(reason(okp(edX, 7, -8)) == .unsupportedKey)
        #expect(reason(okp(edX, 4, -8)) == .unsupportedKey)
        #expect(reason(okp(edX, 6, -7)) == .unsupportedKey)
    }

    @Test func rsaModulusSizes() throws {
        let rsa = try CBORDecoder.decode(F.passkey(.rs256).publicKeyCOSE)
        #expect(try COSEKey(rsa).algorithm == .rs256)
        let e = try #require(rsa[-2]?.bytes)
        let key = { (n: [UInt8], alg: Int64) in map([(int(1), int(3)), (int(3), int(alg)), (int(-1), bytes(n)), (int(-2), bytes(e))]) }
        let modulus = { (bytes: Int) in [0xc5] + [UInt8](repeating: 0x5a, count: bytes - 2) + [0x01] }
        #expect(reason(key(modulus(128), -257)) == .unsupportedKey)  // 1024 bits
        #expect(reason(key(modulus(255), -257)) == .unsupportedKey)  // 2040 bits
        #expect(reason(key(modulus(513), -257)) == .unsupportedKey)  // 4104 bits
        #expect(reason(key([0, 0] + modulus(128), -257)) == .unsupportedKey)  // leading zeros do not count
        #expect(try COSEKey(key(modulus(256), -257)).algorithm == .rs256)
        #expect(try COSEKey(key(modulus(512), -257)).algorithm == .rs256)
        #expect(reason(key(modulus(256), -37)) == .unsupportedKey)  // PS256
        #expect(reason(map([(int(1), int(3)), (int(3), int(-257)), (int(-1), bytes(modulus(256)))])) == .unsupportedKey)
    }
}
