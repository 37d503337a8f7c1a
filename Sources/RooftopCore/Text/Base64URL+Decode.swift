extension Base64URL {
    /// `text` decoded, strictly: the base64url alphabet only, no `=` padding, no whitespace, a
    /// length a real encoding can have, and zero bits where an encoding leaves them zero (so
    /// each byte string has exactly one accepted spelling). nil otherwise.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var buffer = 0
        var bits = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            buffer = (buffer << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> bits) & 0xFF))
                buffer &= (1 << bits) - 1
            }
        }
        // Leftover bits must be zero: `AA` and `AB` can't both decode to the same byte.
        guard buffer == 0 else { return nil }
        return out
    }

    private static func sextet(_ character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
