/// The one comparison of secrets (keys, CSRF tokens, one-time codes): its time depends on the
/// lengths only, never on where the texts first differ, so a timing attacker learns nothing
/// byte by byte.
package enum ConstantTime {
    /// Whether `a` and `b` are the same bytes.
    package static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let x = Array(a)
        let y = Array(b)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    /// Whether `a` and `b` are the same text (as UTF-8 bytes).
    package static func equals(_ a: String, _ b: String) -> Bool { equals(a.utf8, b.utf8) }
}
