// A strict decoder for the CBOR subset that WebAuthn / CTAP2 produce.
//
// Everything outside that subset is refused rather than tolerated: attestation
// objects and COSE keys are attacker-controlled input, and accepting
// alternative encodings of the same value invites signature/parsing
// confusion between components.

/// A decoded CBOR data item, restricted to the types WebAuthn actually uses.
///
/// Negative integers keep the raw CBOR argument `n` (the value is `-1 - n`),
/// so the full CBOR range down to -2^64 is representable without a lossy
/// conversion; use ``int`` to get an `Int64` when it fits.
package enum CBORValue: Sendable, Equatable {
    /// Major type 0: an unsigned integer in 0...2^64-1.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n`, stored as the CBOR argument `n`.
    case negative(UInt64)
    /// Major type 2: a definite-length byte string.
    case byteString([UInt8])
    /// Major type 3: a definite-length text string, already checked to be valid UTF-8.
    case textString(String)
    /// Major type 4: a definite-length array.
    case arrayItems([CBORValue])
    /// Major type 5: a map, kept in wire order (canonical unless the decoder's
    /// limits tolerate another order) so callers can see exactly what was signed.
    case mapEntries([CBORMapEntry])
    /// Simple values 20/21.
    case bool(Bool)
    /// Simple value 22.
    case null
}

/// One key/value pair of a CBOR map; a struct rather than a tuple so that
/// ``CBORValue`` can synthesise `Equatable` and `Sendable`.
package struct CBORMapEntry: Sendable, Equatable {
    /// The map key (always an integer or text string after decoding).
    package var key: CBORValue
    /// The value associated with ``key``.
    package var value: CBORValue

    /// Creates an entry; exposed so tests and callers can build expected values.
    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}

/// Why an input was refused. Cases are fine-grained so that tests (and logs)
/// can tell a malicious encoding from a merely truncated one.
package enum CBORError: Error, Sendable, Equatable {
    /// The input ended before the item (or a declared length) was complete.
    case truncated
    /// `decode` was given more bytes than the single top-level item.
    case trailingBytes
    /// Indefinite-length strings/arrays/maps are not canonical CBOR.
    case indefiniteLength
    /// Additional-information values 28–30 are reserved (malformed CBOR),
    /// as is 31 on major types that have no indefinite form.
    case reservedAdditionalInfo
    /// A major type outside the subset (only tags, type 6, reach this).
    case unsupportedMajorType(UInt8)
    /// A simple value other than false/true/null (e.g. 23, undefined).
    case unsupportedSimpleValue(UInt8)
    /// Half/single/double floats never appear in WebAuthn structures.
    case floatNotSupported
    /// A stray 0xff "break" outside any indefinite-length item.
    case unexpectedBreak
    /// Nesting exceeded ``CBORDecoder/Limits/maxDepth``.
    case tooDeep
    /// A size limit was exceeded (input, string, container, or total items).
    case tooLarge
    /// An integer or length was not encoded in its shortest form.
    case nonCanonicalInteger
    /// A text string was not well-formed UTF-8.
    case invalidUTF8
    /// A map key was not an integer or text string (COSE/CTAP2 use only those).
    case unsupportedMapKey
    /// The same key appeared twice in one map.
    case duplicateMapKey
    /// Map keys were not in canonical (bytewise encoded) order.
    case unsortedMapKeys
}

extension CBORValue {
    /// The payload of a byte string, e.g. a credential ID or COSE coordinate.
    package var bytes: [UInt8]? {
        if case .byteString(let value) = self { return value }
        return nil
    }

    /// The payload of a text string, e.g. the attestation `fmt`.
    package var text: String? {
        if case .textString(let value) = self { return value }
        return nil
    }

    /// The integer value when it fits in `Int64` (COSE labels and algorithm
    /// identifiers always do); `nil` for non-integers and out-of-range values.
    package var int: Int64? {
        switch self {
        case .unsigned(let value):
            return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let argument):
            return argument <= UInt64(Int64.max) ? -1 - Int64(argument) : nil
        default:
            return nil
        }
    }

    /// The elements of an array.
    package var array: [CBORValue]? {
        if case .arrayItems(let value) = self { return value }
        return nil
    }

    /// The entries of a map, in wire order.
    package var map: [CBORMapEntry]? {
        if case .mapEntries(let value) = self { return value }
        return nil
    }

    /// Looks up an integer key (COSE labels such as 1, 3, -1); `nil` if not a map or absent.
    package subscript(key: Int) -> CBORValue? {
        guard let entries = map else { return nil }
        let wanted = Int64(key)
        return entries.first(where: { $0.key.int == wanted })?.value
    }

    /// Looks up a text key (attestation object fields such as "fmt"); `nil` if not a map or absent.
    package subscript(key: String) -> CBORValue? {
        guard let entries = map else { return nil }
        return entries.first(where: { $0.key.text == key })?.value
    }
}
