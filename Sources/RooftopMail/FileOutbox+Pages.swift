import Foundation

/// Reading the outbox a page at a time, for the console: names alone to page through, and one
/// message's headers and plain-text body by its exact name.
extension FileOutbox {
    /// One message as the console shows it.
    package struct Message: Sendable {
        /// The header fields, as in the list.
        package var entry: Entry
        /// The plain-text body, decoded (the HTML alternative is not shown).
        package var text: String
    }

    /// The messages' file names, newest first, without reading them.
    package func names() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter(Self.isMessageName).sorted(by: >)
    }

    /// The entry of the message named exactly `name`; nil when the name is not one this outbox
    /// writes (no path, no `..`, no NUL) or there is no such file.
    package func entry(_ name: String) -> Entry? {
        guard Self.isMessageName(name), let text = read(name) else { return nil }
        let headers = Self.headers(text)
        return Entry(name: name, date: headers["date"] ?? "", to: headers["to"] ?? "", subject: Self.decodeHeader(headers["subject"] ?? ""))
    }

    /// The message named exactly `name`, with its plain-text body decoded.
    package func message(_ name: String) -> Message? {
        guard let entry = entry(name), let text = read(name) else { return nil }
        return Message(entry: entry, text: Self.plainText(text))
    }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// `<milliseconds>-<sequence>-<8 hex>.eml`, as `deliver` names them: an allow-list, so a
    /// name from a URL can never leave the directory.
    package static func isMessageName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard name.utf8.count <= 64, parts.count == 3, parts[2].hasSuffix(".eml") else { return false }
        let digits = Array(parts[0].utf8) + Array(parts[1].utf8)
        let id = parts[2].dropLast(4).utf8
        return !parts[0].isEmpty && !parts[1].isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 } && id.count == 8
            && id.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// The `text/plain` part of a rendered message, base64-decoded.
    static func plainText(_ text: String) -> String {
        var lines = text.components(separatedBy: "\r\n").makeIterator()
        while let line = lines.next() {
            guard line.lowercased().hasPrefix("content-type: text/plain") else { continue }
            while let header = lines.next(), !header.isEmpty {}
            var base64 = ""
            while let body = lines.next(), !body.isEmpty, !body.hasPrefix("--") { base64 += body }
            return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return ""
    }
}
