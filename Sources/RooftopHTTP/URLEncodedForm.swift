import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, read as the hosted pages and
/// the console read them.
package enum URLEncodedForm {
    /// The pairs of `text` as plain strings: no JSON interpretation, so a parameter is never an
    /// object or an operator; the first value of a name wins; at most `maxPairs` pairs are read.
    package static func parse(_ text: String, maxPairs: Int = 50) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&").prefix(maxPairs) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = parts.first.flatMap(decode), result[name] == nil else { continue }
            result[name] = parts.count == 2 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }
}
