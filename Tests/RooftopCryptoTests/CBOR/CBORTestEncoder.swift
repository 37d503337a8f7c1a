import RooftopCrypto

/// Test-only encoder: emits shortest-form, definite-length CBOR, maps in the
/// order given (callers supply canonical order), so decode∘encode round-trips.
enum TestEncoder {
    static func header(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let m = major << 5
        switch argument {
        case 0..<24: return [m | UInt8(argument)]
        case 24...0xff: return [m | 24, UInt8(argument)]
        case 0x100...0xffff: return [m | 25] + bigEndian(argument, 2)
        case 0x1_0000...0xffff_ffff: return [m | 26] + bigEndian(argument, 4)
        default: return [m | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }

    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return header(0, n)
        case .negative(let n): return header(1, n)
        case .byteString(let b): return header(2, UInt64(b.count)) + b
        case .textString(let s): return header(3, UInt64(s.utf8.count)) + Array(s.utf8)
        case .arrayItems(let items): return header(4, UInt64(items.count)) + items.flatMap(encode)
        case .mapEntries(let entries):
            return header(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let b): return [b ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        }
    }
}

/// Shorthand constructors to keep expected values readable.
func int(_ v: Int64) -> CBORValue { v >= 0 ? .unsigned(UInt64(v)) : .negative(UInt64(-1 - v)) }
func text(_ s: String) -> CBORValue { .textString(s) }
func bytes(_ b: [UInt8]) -> CBORValue { .byteString(b) }
func array(_ a: [CBORValue]) -> CBORValue { .arrayItems(a) }
func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
    .mapEntries(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
}

func hex(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    var chars = Array(s.filter { !$0.isWhitespace })
    while chars.count >= 2 {
        out.append(UInt8(String(chars[0...1]), radix: 16) ?? 0)
        chars.removeFirst(2)
    }
    return out
}

/// SplitMix64: tiny, deterministic, good enough to drive a reproducible fuzz.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A WebAuthn "none" attestation object built from parts, so tests know
/// exactly where the COSE key starts and ends inside authData.
struct SampleAttestation {
    let coseKey: CBORValue
    let coseKeyBytes: [UInt8]
    let extensionBytes: [UInt8]
    let authData: [UInt8]
    let coseKeyOffset: Int
    let attestationObject: [UInt8]

    init(withExtensions: Bool) {
        let x = (0..<32).map { UInt8($0) }
        let y = (0..<32).map { UInt8(0xff - $0) }
        coseKey = map([
            (int(1), int(2)),  // kty: EC2
            (int(3), int(-7)),  // alg: ES256
            (int(-1), int(1)),  // crv: P-256
            (int(-2), bytes(x)),
            (int(-3), bytes(y)),
        ])
        coseKeyBytes = TestEncoder.encode(coseKey)
        extensionBytes = withExtensions ? TestEncoder.encode(map([(text("credProtect"), int(2))])) : []
        let rpIdHash = [UInt8](repeating: 0xab, count: 32)
        let flags: UInt8 = 0x45 | (withExtensions ? 0x80 : 0)  // UP, UV, AT (+ ED)
        let signCount: [UInt8] = [0, 0, 0, 7]
        let aaguid = [UInt8](repeating: 0, count: 16)
        let credId = (0..<20).map { UInt8($0 &* 7) }
        let prefix = rpIdHash + [flags] + signCount + aaguid + [0, UInt8(credId.count)] + credId
        coseKeyOffset = prefix.count
        authData = prefix + coseKeyBytes + extensionBytes
        attestationObject = TestEncoder.encode(
            map([
                (text("fmt"), text("none")),
                (text("attStmt"), map([])),
                (text("authData"), bytes(authData)),
            ]))
    }
}
