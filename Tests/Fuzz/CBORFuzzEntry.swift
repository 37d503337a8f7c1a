// libFuzzer harness for the CBOR decoder (not part of the SwiftPM package): ./scripts/fuzz-cbor [seconds].
// Invariant checked: decoding never crashes, and any accepted input re-encodes
// byte-identically (the decoder only accepts canonical encodings).

private func header(_ major: UInt8, _ n: UInt64) -> [UInt8] {
    let m = major << 5
    let width: Int
    switch n {
    case 0..<24: return [m | UInt8(n)]
    case 24...0xff: width = 1
    case 0x100...0xffff: width = 2
    case 0x1_0000...0xffff_ffff: width = 4
    default: width = 8
    }
    let info: UInt8 = [1: 24, 2: 25, 4: 26, 8: 27][width] ?? 27
    return [m | info] + (0..<width).reversed().map { UInt8(truncatingIfNeeded: n >> (UInt64($0) * 8)) }
}

private func encode(_ v: CBORValue) -> [UInt8] {
    switch v {
    case .unsigned(let n): return header(0, n)
    case .negative(let n): return header(1, n)
    case .byteString(let b): return header(2, UInt64(b.count)) + b
    case .textString(let s): return header(3, UInt64(s.utf8.count)) + Array(s.utf8)
    case .arrayItems(let a): return header(4, UInt64(a.count)) + a.flatMap(encode)
    case .mapEntries(let e): return header(5, UInt64(e.count)) + e.flatMap { encode($0.key) + encode($0.value) }
    case .bool(let b): return [b ? 0xf5 : 0xf4]
    case .null: return [0xf6]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if let (value, consumed) = try? CBORDecoder.decodePrefix(input) {
        precondition(consumed > 0 && consumed <= input.count)
        precondition(encode(value) == Array(input[..<consumed]), "non-canonical input accepted")
    }
    if let value = try? CBORDecoder.decode(input) {
        precondition(encode(value) == input)
        precondition((try? CBORDecoder.decode(encode(value))) == value)
    }
    return 0
}
