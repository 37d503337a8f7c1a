import Foundation
import RooftopCore

/// Parse values as the console shows them (short, typed) and as its editors read and write
/// them: one text per field, compared with the stored value's text so that only changed fields
/// are sent.
enum ConsoleValues {
    /// A cell's text: typed for Pointer, Date, File, GeoPoint and ACL, else the JSON, cut to 80
    /// characters.
    static func short(_ value: JSON?, _ type: FieldType?) -> String {
        guard let value, !value.isNull else { return "" }
        let text: String
        switch value.parseType {
        case "Pointer": text = "→ \(value["className"]?.stringValue ?? "")/\(value["objectId"]?.stringValue ?? "")"
        case "Date": text = value["iso"]?.stringValue.flatMap(ParseDate.init(iso:)).map(ConsoleResponder.time) ?? ""
        case "File": text = "📄 " + (value["name"]?.stringValue ?? "")
        case "GeoPoint": text = "(\(number(value["latitude"])), \(number(value["longitude"])))"
        case "Relation": text = "⇉ " + (value["className"]?.stringValue ?? "")
        default:
            if type == .acl, let acl = try? ACL(json: value) {
                text = aclSummary(acl)
            } else if let s = value.stringValue {
                text = s
            } else {
                text = JSONWriter.string(value, sortedKeys: true)
            }
        }
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    /// A table cell: `createdAt` and `updatedAt` (ISO strings on the wire) as the console shows
    /// times, everything else as `short`.
    static func cell(_ value: JSON?, column: String, _ type: FieldType?) -> String {
        if column == "createdAt" || column == "updatedAt", let date = value?.stringValue.flatMap(ParseDate.init(iso:)) {
            return ConsoleResponder.time(date)
        }
        return short(value, type)
    }

    static func aclSummary(_ acl: ACL) -> String {
        let keys = acl.readers.union(acl.writers).sorted()
        if keys.isEmpty { return "master only" }
        return keys.map { key in
            (acl.readers.contains(key) ? "r" : "") + (acl.writers.contains(key) ? "w" : "") + " " + key
        }.joined(separator: ", ")
    }

    static func number(_ value: JSON?) -> String {
        guard let n = value?.numberValue else { return "" }
        return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }

    /// The editor's text for a stored value (what the form shows, and what a POST is compared
    /// with); GeoPoints use two boxes, `latitude` and `longitude`.
    static func editorText(_ value: JSON?, _ type: FieldType) -> String {
        guard let value, !value.isNull else { return "" }
        switch type {
        case .string: return value.stringValue ?? JSONWriter.string(value, sortedKeys: true)
        case .number: return value.numberValue.map { number(.number($0)) } ?? ""
        case .boolean: return value.boolValue.map { $0 ? "true" : "false" } ?? ""
        case .date:
            // datetime-local in UTC, to the second.
            guard let iso = value["iso"]?.stringValue else { return "" }
            return String(iso.prefix(19))
        case .pointer: return value["objectId"]?.stringValue ?? ""
        case .geoPoint: return number(value["latitude"]) + "," + number(value["longitude"])
        case .file: return value["name"]?.stringValue ?? ""
        default: return JSONWriter.string(value, sortedKeys: true)
        }
    }

    /// An editor's text as the browser sent it, in the form `editorText` writes: text areas send
    /// CRLF line breaks, `datetime-local` drops zero seconds, an empty GeoPoint is a lone comma.
    /// Without this a save would rewrite fields the admin never touched.
    static func submitted(_ text: String, _ type: FieldType) -> String {
        switch type {
        case .string: return text.replacingOccurrences(of: "\r\n", with: "\n")
        case .date: return text.utf8.count == 16 && text.dropFirst(10).first == "T" ? text + ":00" : text
        case .geoPoint: return text == "," ? "" : text
        default: return text
        }
    }

    /// The value typed in an editor, as the API takes it in a body; nil for an empty box (the
    /// field is then deleted). Bad input is the API's error 111/107 with a message naming the
    /// field.
    static func parse(_ text: String, _ type: FieldType, field: String) throws(ParseError) -> JSON? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty && type != .string { return nil }
        if text.isEmpty { return nil }
        func bad(_ expected: String) -> ParseError {
            ParseError(.incorrectType, "\(field): expected \(expected), got \(ClassName.printable(String(trimmed.prefix(40))))")
        }
        switch type {
        case .string: return .string(text)
        case .number:
            guard let n = Double(trimmed), n.isFinite else { throw bad("a number") }
            return .number(n)
        case .boolean:
            guard trimmed == "true" || trimmed == "false" else { throw bad("true or false") }
            return .bool(trimmed == "true")
        case .date:
            guard let date = ConsoleResponder.localTime(trimmed) else { throw bad("a date and time (UTC)") }
            return ["__type": "Date", "iso": .string(date.iso)]
        case .pointer(let target):
            guard ObjectId.isPlausible(trimmed) else { throw bad("an objectId") }
            return ["__type": "Pointer", "className": .string(target.rawValue), "objectId": .string(trimmed)]
        case .geoPoint:
            let parts = trimmed.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lat = parts[0], let lng = parts[1] else { throw bad("latitude and longitude") }
            return ["__type": "GeoPoint", "latitude": .number(lat), "longitude": .number(lng)]
        default:
            // Object, Array, Bytes, Polygon: JSON, read by the API's own JSON parser.
            return try JSONParser.parse(text)
        }
    }

    /// Whether the class's field is edited here: not the built-in ones, not the ACL (its own
    /// grid), not relations (their own table), not files (uploaded through the API), and not a
    /// user's account fields (the API changes those through /users only).
    static func editable(_ field: String, _ type: FieldType, className: ClassName) -> Bool {
        if ["objectId", "createdAt", "updatedAt", "ACL"].contains(field) { return false }
        if case .relation = type { return false }
        if type == .file || type == .acl { return false }
        if className == .user && accountFields.contains(field) { return false }
        return true
    }

    /// A user's fields the console never edits on the data pages.
    static let accountFields: Set<String> = ["password", "authData", "sessionToken", "username", "email"]

    /// The HTML input for a type: `text`, `number`, `checkbox`-like `select`, `datetime-local`,
    /// or a JSON `textarea`.
    static func editorKind(_ type: FieldType) -> String {
        switch type {
        case .string: "text"
        case .number: "number"
        case .boolean: "boolean"
        case .date: "date"
        case .pointer: "pointer"
        case .geoPoint: "geo"
        default: "json"
        }
    }
}
