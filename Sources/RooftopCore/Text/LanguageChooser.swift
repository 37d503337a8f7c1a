import Foundation

/// The one language chooser, for mail, hosted pages and the console: the user's choice (a
/// `locale` field, a cookie), else the request's `Accept-Language`, else the default — always
/// one of the shipped (or operator supplied) languages, so a value like `../../etc/passwd` can
/// never name a file.
package struct LanguageChooser: Sendable {
    /// Languages available, as lowercase primary tags (`en`, `ja`).
    package let available: Set<String>
    /// The fallback, one of `available`.
    package let fallback: String

    /// Creates a chooser; `fallback` is added to `available` if missing.
    package init(available: Set<String> = ["en", "ja"], fallback: String = "en") {
        self.available = available.union([fallback])
        self.fallback = fallback
    }

    /// The first usable of: the user's `locale` (`ja`, `ja-JP`, `ja_JP`), the `Accept-Language`
    /// entries by descending quality, the fallback.
    package func choose(userLocale: String?, acceptLanguage: String?) -> String {
        if let userLocale, let tag = match(userLocale) { return tag }
        for candidate in Self.ranked(acceptLanguage ?? "") {
            if let tag = match(candidate) { return tag }
        }
        return fallback
    }

    /// The available primary tag `value` names, if any: letters only, 2–8 of them.
    func match(_ value: String) -> String? {
        let primary = value.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard (2...8).contains(primary.count), primary.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        return available.contains(primary) ? primary : nil
    }

    /// `Accept-Language` tags by descending `q` (stable for equal weights); `q=0` dropped.
    static func ranked(_ header: String) -> [String] {
        let entries = header.split(separator: ",").prefix(20).enumerated().compactMap { index, part -> (String, Double, Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty else { return nil }
            var quality = 1.0
            for piece in pieces.dropFirst() where piece.hasPrefix("q=") { quality = Double(piece.dropFirst(2)) ?? 0 }
            return quality > 0 ? (tag, quality, index) : nil
        }
        return entries.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }.map(\.0)
    }
}
