/// Parse's timestamp format: ISO-8601 UTC with milliseconds, `2024-05-01T12:34:56.789Z`.
///
/// Hand-written rather than `ISO8601DateFormatter` because it runs on every object encoded,
/// and because it has to compile without Foundation's formatters in the core.
public struct ParseDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSince1970: Int64

    /// Creates a date from milliseconds since the epoch.
    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    /// Orders by time.
    public static func < (lhs: ParseDate, rhs: ParseDate) -> Bool { lhs.millisecondsSince1970 < rhs.millisecondsSince1970 }

    /// The ISO string with milliseconds.
    public var iso: String {
        let ms = millisecondsSince1970
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let rest = ms - days * 86_400_000
        let (y, m, d) = ParseDate.civil(fromDays: days)
        let h = rest / 3_600_000, mi = rest / 60_000 % 60, s = rest / 1000 % 60, milli = rest % 1000
        guard (0...9999).contains(y) else {
            return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2)).\(pad(milli, 3))Z"
        }
        // Every stored object has two dates to write: digits straight into 24 bytes.
        return String(unsafeUninitializedCapacity: 24) { out in
            var end = 0
            // Each part's digits, right-aligned in its width, then its separator.
            let parts: [(Int64, Int, Unicode.Scalar)] = [
                (y, 4, "-"), (m, 2, "-"), (d, 2, "T"), (h, 2, ":"), (mi, 2, ":"), (s, 2, "."), (milli, 3, "Z"),
            ]
            for (value, width, separator) in parts {
                var value = value
                for i in stride(from: end + width - 1, through: end, by: -1) {
                    out[i] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
                out[end + width] = UInt8(ascii: separator)
                end += width + 1
            }
            return end
        }
    }

    /// The ISO string.
    public var description: String { iso }

    private func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS(.fff)?(Z|±HH:MM)`; nil when malformed.
    public init?(iso text: String) {
        let b = Array(text.utf8)
        func num(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= b.count else { return nil }
            var v: Int64 = 0
            for i in start..<start + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
            let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
            let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        var millis: Int64 = 0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 3 { millis = millis * 10 + Int64(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<3 where digits < 3 { millis *= 10 }
        }
        var offset: Int64 = 0
        if i < b.count, b[i] == 0x5A {
            i += 1
        } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
            guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 0x3A, let om = num(i + 4, 2) else { return nil }
            offset = (oh * 60 + om) * 60_000 * (b[i] == 0x2D ? -1 : 1)
            i += 6
        }
        guard i == b.count else { return nil }
        let days = ParseDate.days(fromCivil: y, mo, d)
        millisecondsSince1970 = days * 86_400_000 + h * 3_600_000 + mi * 60_000 + s * 1000 + millis - offset
    }

    // Howard Hinnant's civil-calendar algorithms.
    static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
