/// RFC 4648 base32, as `otpauth://` URIs and authenticator apps carry one-time-code secrets.
package enum Base32 {
    /// The bytes in base32 without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var result = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                result.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { result.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return result
    }

    /// Decodes base32 (case-insensitive, padding and spaces ignored, as people type secrets);
    /// nil on any other character.
    package static func decode(_ text: String) -> [UInt8]? {
        var result: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.uppercased() where character != "=" && character != " " {
            guard let ascii = character.asciiValue else { return nil }
            let value: Int
            switch ascii {
            case 65...90: value = Int(ascii) - 65
            case 50...55: value = Int(ascii) - 24
            default: return nil
            }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                result.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return result
    }
}
