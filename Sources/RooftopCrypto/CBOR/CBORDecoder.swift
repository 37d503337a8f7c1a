// A strict decoder for the CBOR subset that WebAuthn / CTAP2 produce.
//
// Everything outside that subset is refused rather than tolerated: attestation
// objects and COSE keys are attacker-controlled input, and accepting
// alternative encodings of the same value invites signature/parsing
// confusion between components.

/// Namespace for the decoding entry points; stateless so it is trivially `Sendable`.
package struct CBORDecoder: Sendable {
    /// Resource bounds, so hostile input costs at most a small, predictable
    /// amount of time and memory.
    package struct Limits: Sendable, Equatable {
        /// Maximum container nesting; also bounds recursion, so the stack cannot overflow.
        package var maxDepth: Int
        /// Maximum elements in one array or pairs in one map.
        package var maxContainerCount: Int
        /// Maximum data items in the whole decoded value.
        package var maxTotalItems: Int
        /// Maximum size of the input buffer handed to the decoder.
        package var maxInputSize: Int
        /// Maximum length in bytes of a byte or text string.
        package var maxStringLength: Int
        /// Whether map keys must come in canonical (bytewise encoded) order. Duplicate keys are
        /// refused either way: with them refused, a map decodes to one value whatever its order,
        /// so order is a matter of interoperability, not of meaning (see `Limits.webAuthn`).
        package var requiresSortedMapKeys: Bool

        /// Defaults comfortably above any real attestation object.
        package init(
            maxDepth: Int = 16,
            maxContainerCount: Int = 1024,
            maxTotalItems: Int = 16_384,
            maxInputSize: Int = 65_536,
            maxStringLength: Int = 65_536,
            requiresSortedMapKeys: Bool = true
        ) {
            self.maxDepth = maxDepth
            self.maxContainerCount = maxContainerCount
            self.maxTotalItems = maxTotalItems
            self.maxInputSize = maxInputSize
            self.maxStringLength = maxStringLength
            self.requiresSortedMapKeys = requiresSortedMapKeys
        }

        /// The limits used when a caller does not pass any.
        package static let `default` = Limits()
    }

    /// Decodes `bytes` as exactly one item; anything after it is an error
    /// because silently ignored bytes could hide a second, conflicting value.
    package static func decode(_ bytes: [UInt8], limits: Limits = .default) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes[...], limits: limits)
        guard consumed == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the first item and reports how many bytes it used, because
    /// authenticator data places extension data right after the COSE key
    /// with no length prefix.
    package static func decodePrefix(
        _ bytes: ArraySlice<UInt8>, limits: Limits = .default
    ) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        guard bytes.count <= limits.maxInputSize else { throw .tooLarge }
        var parser = Parser(bytes: bytes, index: bytes.startIndex, limits: limits)
        let value = try parser.parseItem(depth: 0)
        return (value, parser.index - bytes.startIndex)
    }

    /// Array convenience overload of the slice-based `decodePrefix`.
    package static func decodePrefix(
        _ bytes: [UInt8], limits: Limits = .default
    ) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        try decodePrefix(bytes[...], limits: limits)
    }
}

/// Cursor over the input. Recursion depth is capped by `limits.maxDepth`
/// before every descent, so recursion here is bounded and stack-safe.
private struct Parser {
    let bytes: ArraySlice<UInt8>
    var index: Int
    let limits: CBORDecoder.Limits
    var totalItems = 0

    var remaining: Int { bytes.endIndex - index }

    mutating func readByte() throws(CBORError) -> UInt8 {
        guard index < bytes.endIndex else { throw .truncated }
        let byte = bytes[index]
        index += 1
        return byte
    }

    mutating func readBigEndian(_ count: Int) throws(CBORError) -> UInt64 {
        guard remaining >= count else { throw .truncated }
        var value: UInt64 = 0
        for _ in 0..<count {
            value = value << 8 | UInt64(bytes[index])
            index += 1
        }
        return value
    }

    /// Reads the argument and insists on the shortest encoding, since
    /// deterministic CBOR allows exactly one encoding per value.
    mutating func readArgument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let value: UInt64
        let minimum: UInt64
        switch info {
        case 0..<24: return UInt64(info)
        case 24: value = try readBigEndian(1); minimum = 24
        case 25: value = try readBigEndian(2); minimum = 0x100
        case 26: value = try readBigEndian(4); minimum = 0x1_0000
        case 27: value = try readBigEndian(8); minimum = 0x1_0000_0000
        case 31: throw .indefiniteLength
        default: throw .reservedAdditionalInfo
        }
        guard value >= minimum else { throw .nonCanonicalInteger }
        return value
    }

    /// Validates a declared string length against limits and the bytes
    /// actually present *before* touching memory, so a huge declared length
    /// cannot trigger a huge allocation.
    mutating func readPayload(_ info: UInt8) throws(CBORError) -> ArraySlice<UInt8> {
        let length = try readArgument(info)
        guard length <= UInt64(remaining) else { throw .truncated }
        guard length <= UInt64(limits.maxStringLength) else { throw .tooLarge }
        let start = index
        index += Int(length)
        return bytes[start..<index]
    }

    /// Validates a container count; every element needs at least
    /// `bytesPerElement` bytes, so counts the input cannot hold fail before reserving.
    mutating func readCount(_ info: UInt8, bytesPerElement: UInt64, depth: Int) throws(CBORError) -> Int {
        let count = try readArgument(info)
        guard depth < limits.maxDepth else { throw .tooDeep }
        guard count <= UInt64(remaining) / bytesPerElement else { throw .truncated }
        guard count <= UInt64(limits.maxContainerCount) else { throw .tooLarge }
        return Int(count)
    }

    mutating func parseItem(depth: Int) throws(CBORError) -> CBORValue {
        totalItems += 1
        guard totalItems <= limits.maxTotalItems else { throw .tooLarge }
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1f
        switch major {
        case 0, 1:
            guard info != 31 else { throw .reservedAdditionalInfo }
            let argument = try readArgument(info)
            return major == 0 ? .unsigned(argument) : .negative(argument)
        case 2:
            return .byteString(Array(try readPayload(info)))
        case 3:
            let payload = try readPayload(info)
            // String(decoding:) repairs bad input with U+FFFD, so comparing the
            // result to the original bytes detects any ill-formed sequence
            // (overlongs, surrogates, truncation) without needing newer stdlib APIs.
            let text = String(decoding: payload, as: UTF8.self)
            guard text.utf8.elementsEqual(payload) else { throw .invalidUTF8 }
            return .textString(text)
        case 4:
            let count = try readCount(info, bytesPerElement: 1, depth: depth)
            var items: [CBORValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                items.append(try parseItem(depth: depth + 1))
            }
            return .arrayItems(items)
        case 5:
            let count = try readCount(info, bytesPerElement: 2, depth: depth)
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var previousKey: ArraySlice<UInt8>?
            // Only an order-tolerant decode needs every key seen so far to find a duplicate; in
            // canonical order a duplicate is always the key right before it.
            var seenKeys: Set<ArraySlice<UInt8>> = []
            for _ in 0..<count {
                let keyStart = index
                let key = try parseItem(depth: depth + 1)
                switch key {
                case .unsigned, .negative, .textString: break
                default: throw .unsupportedMapKey
                }
                let encodedKey = bytes[keyStart..<index]
                if !limits.requiresSortedMapKeys {
                    guard seenKeys.insert(encodedKey).inserted else { throw .duplicateMapKey }
                } else if let previousKey {
                    // For shortest-form definite-length keys, bytewise order of the
                    // encodings equals CTAP2's "major type, then length, then bytes"
                    // rule and RFC 8949 §4.2.1, so one comparison covers both.
                    guard !previousKey.elementsEqual(encodedKey) else { throw .duplicateMapKey }
                    guard previousKey.lexicographicallyPrecedes(encodedKey) else { throw .unsortedMapKeys }
                }
                previousKey = encodedKey
                entries.append(CBORMapEntry(key: key, value: try parseItem(depth: depth + 1)))
            }
            return .mapEntries(entries)
        case 6:
            throw .unsupportedMajorType(6)
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 24: throw .unsupportedSimpleValue(try readByte())
            case 25, 26, 27: throw .floatNotSupported
            case 28, 29, 30: throw .reservedAdditionalInfo
            case 31: throw .unexpectedBreak
            default: throw .unsupportedSimpleValue(info)
            }
        }
    }
}
