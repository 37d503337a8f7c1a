/// Serializes `JSON` to compact UTF-8.
public enum JSONWriter {
    /// The UTF-8 bytes of `value`.
    ///
    /// With `sortedKeys`, object members are written in key order: the canonical form used for
    /// stored documents, so equal values have equal text.
    public static func bytes(_ value: JSON, sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, sortedKeys: sortedKeys)
        return out
    }

    /// `value` as a compact JSON string.
    public static func string(_ value: JSON, sortedKeys: Bool = false) -> String {
        String(decoding: bytes(value, sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// Appends the encoding of `value` to `out`.
    public static func write(_ value: JSON, into out: inout [UInt8], sortedKeys: Bool = false) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            let ordered = sortedKeys ? members.sorted { $0.key < $1.key } : Array(members)
            for (key, member) in ordered {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member, into: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        if n.rounded() == n, abs(n) < 9.0e15 {
            out.append(contentsOf: String(Int64(n)).utf8)
        } else if n.isFinite {
            out.append(contentsOf: String(n).utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal.
    ///
    /// Runs of bytes that need no escape are copied at once: listing objects spent most of its
    /// writing time here (docs/benchmarks.md, profile of `list`).
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if run < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index])) }
                escape(byte, into: &out)
                run = index + 1
            }
            if run < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
