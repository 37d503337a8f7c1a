import RooftopCrypto
import Testing

// The strict CBOR decoder (WebAuthn's subset, for passkeys): RFC 8949 vectors, an attestation
// object, every refusal, and a bounded deterministic fuzz run.

@Suite struct CBORVectorTests {
    static let vectors: [(String, CBORValue)] = [
        ("00", int(0)), ("01", int(1)), ("0a", int(10)), ("17", int(23)), ("1818", int(24)),
        ("1819", int(25)), ("1864", int(100)), ("1903e8", int(1000)), ("1a000f4240", int(1_000_000)),
        ("1b000000e8d4a51000", int(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(UInt64.max)),
        ("3bffffffffffffffff", .negative(UInt64.max)),
        ("20", int(-1)), ("29", int(-10)), ("3863", int(-100)), ("3903e7", int(-1000)),
        ("40", bytes([])), ("4401020304", bytes([1, 2, 3, 4])),
        ("60", text("")), ("6161", text("a")), ("6449455446", text("IETF")),
        ("62225c", text("\"\\")), ("62c3bc", text("\u{00fc}")), ("63e6b0b4", text("\u{6c34}")),
        ("64f0908591", text("\u{10151}")),
        ("80", array([])), ("83010203", array([int(1), int(2), int(3)])),
        ("8301820203820405", array([int(1), array([int(2), int(3)]), array([int(4), int(5)])])),
        (
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            array((1...25).map { int(Int64($0)) })
        ),
        ("a0", map([])), ("a201020304", map([(int(1), int(2)), (int(3), int(4))])),
        ("a26161016162820203", map([(text("a"), int(1)), (text("b"), array([int(2), int(3)]))])),
        ("826161a161626163", array([text("a"), map([(text("b"), text("c"))])])),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
    ]

    @Test(arguments: vectors.indices)
    func decodesVector(_ i: Int) throws {
        let (encoded, expected) = Self.vectors[i]
        let input = hex(encoded)
        #expect(try CBORDecoder.decode(input) == expected)
        #expect(TestEncoder.encode(expected) == input)
    }

    @Test func accessors() throws {
        #expect(int(-1000).int == -1000)
        #expect(CBORValue.unsigned(UInt64.max).int == nil)
        #expect(CBORValue.negative(UInt64(Int64.max)).int == Int64.min)
        #expect(CBORValue.negative(UInt64(Int64.max) + 1).int == nil)
        let m = try CBORDecoder.decode(hex("a26161016162820203"))
        #expect(m["a"]?.int == 1)
        #expect(m["b"]?.array?.count == 2)
        #expect(m["c"] == nil)
        #expect(m[1] == nil)
        #expect(text("x").text == "x" && text("x").bytes == nil && bytes([1]).bytes == [1])
        #expect(int(1)[1] == nil && int(1).map == nil)
    }
}

@Suite struct CBORWebAuthnTests {
    @Test func noneAttestationAndCOSEKey() throws {
        for withExtensions in [false, true] {
            let sample = SampleAttestation(withExtensions: withExtensions)
            let object = try CBORDecoder.decode(sample.attestationObject)
            #expect(object["fmt"]?.text == "none")
            #expect(object["attStmt"]?.map?.isEmpty == true)
            let authData = try #require(object["authData"]?.bytes)
            #expect(authData == sample.authData)

            // The credential ID length sits right before the ID, big-endian.
            let credIdLen = Int(authData[53]) << 8 | Int(authData[54])
            let keyOffset = 55 + credIdLen
            #expect(keyOffset == sample.coseKeyOffset)
            let (key, consumed) = try CBORDecoder.decodePrefix(authData[keyOffset...])
            #expect(consumed == sample.coseKeyBytes.count)
            #expect(consumed == 77)
            #expect(key == sample.coseKey)
            #expect(key[1]?.int == 2)
            #expect(key[3]?.int == -7)
            #expect(key[-1]?.int == 1)
            #expect(key[-2]?.bytes?.count == 32)
            #expect(key[-3]?.bytes?.count == 32)

            let rest = authData[(keyOffset + consumed)...]
            #expect(Array(rest) == sample.extensionBytes)
            if withExtensions {
                #expect(try CBORDecoder.decode(Array(rest))["credProtect"]?.int == 2)
                #expect(throws: CBORError.trailingBytes) { try CBORDecoder.decode(Array(authData[keyOffset...])) }
            }
        }
    }
}

@Suite struct CBORRefusalTests {
    @Test func truncatedAtEveryPosition() throws {
        let valid = SampleAttestation(withExtensions: true).attestationObject
        _ = try CBORDecoder.decode(valid)
        for cut in 0..<valid.count {
            #expect(throws: CBORError.truncated) { try CBORDecoder.decode(Array(valid[..<cut])) }
        }
    }

    @Test func trailingBytes() {
        #expect(throws: CBORError.trailingBytes) { try CBORDecoder.decode([0x01, 0x00]) }
        #expect(throws: CBORError.trailingBytes) { try CBORDecoder.decode(hex("a0 a0")) }
    }

    @Test(arguments: [
        ("5f41014102ff", CBORError.indefiniteLength), ("7f6161ff", .indefiniteLength),
        ("9f01ff", .indefiniteLength), ("bf616101ff", .indefiniteLength),
        ("1805", .nonCanonicalInteger), ("1817", .nonCanonicalInteger), ("190005", .nonCanonicalInteger),
        ("1900ff", .nonCanonicalInteger), ("1a0000ffff", .nonCanonicalInteger),
        ("1b00000000ffffffff", .nonCanonicalInteger), ("3805", .nonCanonicalInteger),
        ("5801ff", .nonCanonicalInteger), ("780161", .nonCanonicalInteger), ("9800", .nonCanonicalInteger),
        ("b800", .nonCanonicalInteger),
        ("c074323031332d30332d32315432303a30343a30305a", .unsupportedMajorType(6)),
        ("c11a514b67b0", .unsupportedMajorType(6)), ("d818456449455446", .unsupportedMajorType(6)),
        ("f90000", .floatNotSupported), ("f93c00", .floatNotSupported),
        ("fa47c35000", .floatNotSupported), ("fb3ff199999999999a", .floatNotSupported),
        ("f7", .unsupportedSimpleValue(23)), ("f0", .unsupportedSimpleValue(16)),
        ("e0", .unsupportedSimpleValue(0)), ("f820", .unsupportedSimpleValue(32)),
        ("f8ff", .unsupportedSimpleValue(255)),
        ("ff", .unexpectedBreak), ("1c", .reservedAdditionalInfo), ("3e", .reservedAdditionalInfo),
        ("1f", .reservedAdditionalInfo), ("fc", .reservedAdditionalInfo),
        ("61ff", .invalidUTF8), ("62c328", .invalidUTF8), ("62c0af", .invalidUTF8),
        ("63eda080", .invalidUTF8), ("64f4908080", .invalidUTF8), ("61c3", .invalidUTF8),
        ("a201020103", .duplicateMapKey), ("a2616101616102", .duplicateMapKey),
        ("a203040102", .unsortedMapKeys), ("a220010102", .unsortedMapKeys),
        ("a2616201616102", .unsortedMapKeys),
        ("a2190100010102", .unsortedMapKeys), ("a2616101190100", .unsortedMapKeys),
        ("a221202001", .unsortedMapKeys),
        ("a14001", .unsupportedMapKey), ("a1f501", .unsupportedMapKey), ("a18001", .unsupportedMapKey),
        // COSE key with labels in the wrong order (3 before 1).
        ("a503260102200121582000", .unsortedMapKeys),
    ])
    func refuses(_ input: String, _ expected: CBORError) {
        #expect(throws: expected) { try CBORDecoder.decode(hex(input)) }
    }

    @Test func deepNestingFailsFast() {
        let nested = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        let roomy = CBORDecoder.Limits(maxInputSize: 1 << 20)
        #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode(nested, limits: roomy) }
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(nested) }
        // Exactly at the limit is fine; one more level is not.
        let sixteen = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect((try? CBORDecoder.decode(sixteen)) != nil)
        #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode([0x81] + sixteen) }
        let maps: [UInt8] = (0..<17).flatMap { _ -> [UInt8] in [0xa1, 0x00] } + [0x00]
        #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode(maps) }
    }

    @Test func hugeDeclaredLengthsFailWithoutAllocating() {
        for prefix: UInt8 in [0x5b, 0x7b, 0x9b, 0xbb] {
            let input = [prefix, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
            #expect(throws: CBORError.truncated) { try CBORDecoder.decode(input) }
            let half = [prefix, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
            #expect(throws: CBORError.truncated) { try CBORDecoder.decode(half) }
        }
    }

    @Test func containerAndStringLimits() throws {
        let tight = CBORDecoder.Limits(maxContainerCount: 4, maxTotalItems: 10, maxStringLength: 3)
        #expect(try CBORDecoder.decode(hex("8401020304"), limits: tight).array?.count == 4)
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(hex("850102030405"), limits: tight) }
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(hex("a50102030405060708090a"), limits: tight) }
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(hex("4401020304"), limits: tight) }
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(hex("6461626364"), limits: tight) }
        // 3 arrays of 3 = 12 items > 10 total even though each container is small.
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode(hex("8383010203830102038301 0203"), limits: tight) }
        let big = [UInt8](repeating: 0x00, count: 1025)
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode([0x99, 0x04, 0x01] + big) }
        #expect(throws: CBORError.tooLarge) { try CBORDecoder.decode([UInt8](repeating: 0, count: 65_537)) }
    }
}

@Suite struct CBORFuzzTests {
    static func check(_ input: [UInt8], _ successes: inout Int) {
        do {
            let value = try CBORDecoder.decode(input)
            let reencoded = TestEncoder.encode(value)
            #expect(reencoded == input, "canonical input must re-encode byte-identically")
            #expect((try? CBORDecoder.decode(reencoded)) == value)
            successes += 1
        } catch {
            // Typed throws: any thrown error is a CBORError by construction.
            _ = error
        }
        // decodePrefix must agree with decode on the first item.
        if let (_, consumed) = try? CBORDecoder.decodePrefix(input) {
            #expect(consumed > 0 && consumed <= input.count)
        }
    }

    @Test func randomBytes() {
        var rng = SplitMix64(state: 0x5EED_CB00_0001)
        var successes = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...256, using: &rng)
            let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            Self.check(input, &successes)
        }
        #expect(successes > 0)
    }

    @Test func mutationsOfValidEncodings() {
        let seeds: [[UInt8]] =
            CBORVectorTests.vectors.map { hex($0.0) } + [
                SampleAttestation(withExtensions: false).attestationObject,
                SampleAttestation(withExtensions: true).attestationObject,
                SampleAttestation(withExtensions: true).coseKeyBytes,
                hex("a26161016162820203"),
            ]
        var rng = SplitMix64(state: 42)
        var successes = 0
        for _ in 0..<20_000 {
            var input = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0 where !input.isEmpty:
                    input[Int.random(in: 0..<input.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
                case 1 where !input.isEmpty:
                    input.removeLast(Int.random(in: 1...input.count, using: &rng))
                case 2:
                    input.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...input.count, using: &rng))
                case 3 where !input.isEmpty:
                    input.remove(at: Int.random(in: 0..<input.count, using: &rng))
                default:
                    if !input.isEmpty {
                        input[Int.random(in: 0..<input.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    }
                }
            }
            Self.check(input, &successes)
        }
        #expect(successes > 100)
    }
}
