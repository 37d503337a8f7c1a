package import RooftopCore

/// JSON for people: two-space indentation, keys sorted, one member per line.
package enum PrettyJSON {
    /// `value` indented, without a trailing newline.
    package static func string(_ value: JSON) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out
    }

    private static func write(_ value: JSON, indent: String, into out: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let sorted = members.sorted { $0.key < $1.key }
            for (index, member) in sorted.enumerated() {
                out += inner + JSONWriter.string(.string(member.key)) + ": "
                write(member.value, indent: inner, into: &out)
                out += index < sorted.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default: out += JSONWriter.string(value)
        }
    }
}
