import Foundation

/// One entry of `masterKeyIps` or `trustProxy`: an address (`10.0.0.1`, `::1`) or a CIDR block
/// (`10.0.0.0/8`, `fd00::/8`, `0.0.0.0/0`, `::/0`).
///
/// Compared as bytes rather than as text, so `::ffff:10.0.0.1` (an IPv4 client on a dual-stack
/// socket) matches `10.0.0.1`, and spellings of one IPv6 address match each other.
package struct AddressRange: Sendable, Equatable {
    let network: [UInt8]
    let prefixLength: Int

    /// Parses an address or CIDR block; nil when it is neither.
    package init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].allSatisfy(\.isASCII) else { return nil }
            length = given
        }
        network = bytes
        prefixLength = length
    }

    /// Whether `address` lies in this range; an unparsable address lies in none.
    package func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address), bytes.count == network.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(bytes, network) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a & mask != b & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// Whether a host name or address (as in a URL or a `Host` header, a port and IPv6 brackets
    /// allowed) names this machine only: `localhost`, `*.localhost`, `127.0.0.0/8`, `::1`.
    package static func isLoopbackHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), let end = name.firstIndex(of: "]") {
            name = String(name[name.index(after: name.startIndex)..<end])
        } else if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") {
            name = String(name[..<colon])
        }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return loopback.contains { $0.contains(name) }
    }

    /// `127.0.0.0/8` and `::1`.
    static let loopback = ["127.0.0.0/8", "::1"].compactMap(AddressRange.init)

    /// Whether any of `entries` (addresses or CIDR blocks) contains `address`.
    package static func any(_ entries: [String], contains address: String) -> Bool {
        entries.contains { AddressRange($0)?.contains(address) ?? false }
    }

    /// The address's bytes: 4 for IPv4 (IPv4-mapped IPv6 included), 16 for IPv6.
    static func bytes(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 64, !text.contains("\0") else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
