import Foundation
import RooftopCore

/// Parse's lenient query strings: each value is JSON if it parses, else the plain string.
enum QueryString {
    static func parse(_ query: String?) -> [String: JSON] {
        guard let query, !query.isEmpty else { return [:] }
        var params: [String: JSON] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawKey = parts.first else { continue }
            let key = decode(String(rawKey))
            let value = parts.count > 1 ? decode(String(parts[1])) : ""
            params[key] = (try? JSONParser.parse(value)) ?? .string(value)
        }
        return params
    }

    private static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}
