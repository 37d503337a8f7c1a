import Foundation

/// The plain text templates of mail and hosted pages: `{{name}}` placeholders, and HTML escaping
/// for the values that go into HTML.
public enum TextTemplate {
    /// Replaces `{{name}}` with its value in one pass (a value is never scanned again); unknown
    /// names become empty.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            out += values[name] ?? ""
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// `& < > " '` as entities.
    public static func escapeHTML(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
