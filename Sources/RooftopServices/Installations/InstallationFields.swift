import Foundation
import RooftopCore

/// The typed fields of `_Installation` and their rules: types, formats and bounds, checked
/// before anything is read or written.
enum InstallationFields {
    /// The platforms the Parse SDKs (and Rooftop's) report as `deviceType` (Parse-Swift says
    /// `applewatch`, the JS SDK `web`, the Unity SDK `unity`).
    static let deviceTypes: Set<String> = [
        "ios", "osx", "macos", "tvos", "watchos", "applewatch", "visionos", "android", "fcm", "web", "win", "windows", "winrt", "winphone",
        "dotnet", "unity", "embedded", "linux", "fuchsia",
    ]
    /// The most channels one installation may hold.
    static let maxChannels = 500
    /// The longest channel name.
    static let maxChannelLength = 128
    /// The longest installation id (the SDKs send a 36-character UUID).
    static let maxInstallationIdLength = 128
    /// The longest device token (APNs: 64 hex digits; FCM: about 160 characters).
    static let maxDeviceTokenLength = 1024
    /// The longest value of the other string fields.
    static let maxTextLength = 256

    /// String fields without a format of their own.
    static let plainStrings: Set<String> = [
        "appIdentifier", "appVersion", "appName", "localeIdentifier", "parseVersion", "pushType", "GCMSenderId",
    ]
    /// Every typed field: a dot path into one of them is refused.
    static let typed: Set<String> = plainStrings.union(["installationId", "deviceType", "deviceToken", "channels", "badge", "timeZone"])

    /// `body` checked field by field, with `installationId` and a 64-character (APNs) `deviceToken`
    /// lowercased, as in Parse. Other fields are left to the generic object rules.
    static func normalized(_ body: [String: JSON]) throws(ParseError) -> [String: JSON] {
        var body = body
        for (key, value) in body.sorted(by: { $0.key < $1.key }) {
            let field = key.split(separator: ".", maxSplits: 1).first.map(String.init) ?? key
            guard typed.contains(field) else { continue }
            if field != key { throw ParseError(.incorrectType, "cannot set a nested key on \(field)") }
            if let normal = try normalized(field, value) { body[key] = normal }
        }
        return body
    }

    /// One typed field's value, normalized (nil: unchanged).
    private static func normalized(_ field: String, _ value: JSON) throws(ParseError) -> JSON? {
        let deletes = value == ["__op": "Delete"]
        switch field {
        case "installationId", "deviceType":
            if deletes || value.isNull { throw ParseError(.immutableField, "\(field) may not be changed in this operation") }
            guard case .string(let text) = value else { throw notA("string", field) }
            if field == "installationId" { return .string(try installationId(text)) }
            guard deviceTypes.contains(text) else {
                throw ParseError(.validationError, "deviceType must be one of: \(deviceTypes.sorted().joined(separator: ", ")).")
            }
            return nil
        case "deviceToken":
            if deletes { return nil }
            guard case .string(let text) = value else { throw notA("string", field) }
            guard !text.isEmpty, text.utf8.count <= maxDeviceTokenLength, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else { throw ParseError(.invalidDeviceToken, "deviceToken must be 1 to \(maxDeviceTokenLength) printable ASCII characters.") }
            return text.utf8.count == 64 ? .string(text.lowercased()) : nil
        case "channels":
            try checkChannels(value)
            return nil
        case "badge":
            try checkBadge(value)
            return nil
        case "timeZone":
            if deletes { return nil }
            guard case .string(let text) = value else { throw notA("string", field) }
            guard text.utf8.count <= 64, isPrintable(text), TimeZone(identifier: text) != nil else {
                throw ParseError(.validationError, "timeZone must be an IANA time zone name (\(ClassName.printable(text)) is not).")
            }
            return nil
        default:
            if deletes { return nil }
            guard case .string(let text) = value else { throw notA("string", field) }
            guard text.count <= maxTextLength, isPrintable(text) else {
                throw ParseError(.validationError, "\(field) must be at most \(maxTextLength) printable characters.")
            }
            return nil
        }
    }

    /// An installation id, checked and lowercased: from the body or `X-Parse-Installation-Id`.
    static func installationId(_ text: String) throws(ParseError) -> String {
        guard !text.isEmpty, text.utf8.count <= maxInstallationIdLength, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw ParseError(.invalidInstallationId, "installationId must be 1 to \(maxInstallationIdLength) printable ASCII characters.")
        }
        return text.lowercased()
    }

    /// `channels`: an array of channel names, or `Add`, `AddUnique`, `Remove` of names, or `Delete`.
    private static func checkChannels(_ value: JSON) throws(ParseError) {
        let names: [JSON]
        switch try FieldOperation(parsing: value) {
        case .delete: return
        case .set(.array(let items)), .add(let items), .addUnique(let items), .remove(let items): names = items
        default: throw notA("array of strings", "channels")
        }
        guard names.count <= maxChannels else { throw ParseError(.validationError, "An installation has at most \(maxChannels) channels.") }
        for name in names {
            guard case .string(let text) = name else { throw notA("array of strings", "channels") }
            guard isChannelName(text) else {
                throw ParseError(
                    .invalidChannelName,
                    "Invalid channel name \(ClassName.printable(text)): channel names start with a letter and contain only letters, "
                        + "digits, underscores and hyphens (at most \(maxChannelLength) characters).")
            }
        }
    }

    /// A channel name: empty (Parse's broadcast channel), or a letter then letters, digits,
    /// `_` and `-`.
    static func isChannelName(_ text: String) -> Bool {
        if text.isEmpty { return true }
        guard text.utf8.count <= maxChannelLength, let first = text.utf8.first, isLetter(first) else { return false }
        return text.utf8.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// `badge`: a whole number from 0 to 2³¹−1, an `Increment` by a whole amount, or `Delete`.
    private static func checkBadge(_ value: JSON) throws(ParseError) {
        let number: Double
        switch try FieldOperation(parsing: value) {
        case .delete: return
        case .set(.number(let n)): number = n
        case .increment(let amount):
            guard amount.rounded() == amount, abs(amount) <= Double(Int32.max) else {
                throw ParseError(.validationError, "badge can only be incremented by a whole number.")
            }
            return
        default: throw notA("number", "badge")
        }
        guard number.rounded() == number, number >= 0, number <= Double(Int32.max) else {
            throw ParseError(.validationError, "badge must be a whole number from 0 to \(Int32.max).")
        }
    }

    /// The channels an installation would hold after `value` is applied to `existing`, counted
    /// generously (`AddUnique` counts every name), so a device can't grow its list past the cap
    /// one request at a time.
    static func channelCount(after value: JSON?, existing: JSON?) -> Int {
        let current = existing?.arrayValue?.count ?? 0
        guard let value, let op = try? FieldOperation(parsing: value) else { return current }
        switch op {
        case .set(.array(let items)): return items.count
        case .add(let items), .addUnique(let items): return current + items.count
        default: return current
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }

    private static func notA(_ type: String, _ field: String) -> ParseError {
        ParseError(.incorrectType, "\(field) must be a \(type).")
    }
}
