package import RooftopCrypto

/// Writes CBOR for tests: shortest-form heads, definite lengths, maps in the order given (pass
/// canonical order for canonical CBOR), so what RooftopCrypto's decoder returns writes back to
/// the same bytes. Production code never encodes CBOR.
package enum CBORWriter {
    /// The encoding of `value`.
    package static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return head(0, n)
        case .negative(let n): return head(1, n)
        case .byteString(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .textString(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .arrayItems(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .mapEntries(let entries): return head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): return [flag ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        }
    }

    /// A map of `pairs`, in that order.
    package static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .mapEntries(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    /// An integer.
    package static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The head of an item: major type and argument, in the shortest form.
    package static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        let width: Int
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: width = 1
        case 0x100...0xffff: width = 2
        case 0x1_0000...0xffff_ffff: width = 4
        default: width = 8
        }
        let info: UInt8 = width == 1 ? 24 : width == 2 ? 25 : width == 4 ? 26 : 27
        return [type | info] + (0..<width).reversed().map { UInt8(truncatingIfNeeded: argument >> (UInt64($0) * 8)) }
    }
}
