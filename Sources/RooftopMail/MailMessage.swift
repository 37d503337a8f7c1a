package import Foundation

/// One email: plain text, optionally with an HTML alternative.
///
/// Every header value is stripped of CR and LF when rendered, so nothing a user typed (a name,
/// an address, a subject built from an app name) can add a header or end the header block.
package struct MailMessage: Sendable, Equatable {
    /// `From`, e.g. `"My App <no-reply@example.com>"`.
    package var from: String
    /// The recipient's address.
    package var to: String
    /// The subject, any Unicode.
    package var subject: String
    /// The plain-text body.
    package var text: String
    /// The HTML body, sent as a `multipart/alternative` part after the text.
    package var html: String?
    /// Extra headers, for example `X-Rooftop-Kind: verify-email`.
    package var headers: [(String, String)]

    /// Creates a message.
    package init(from: String, to: String, subject: String, text: String, html: String? = nil, headers: [(String, String)] = []) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.headers = headers
    }

    /// Equal when every field and header is.
    package static func == (a: MailMessage, b: MailMessage) -> Bool {
        a.from == b.from && a.to == b.to && a.subject == b.subject && a.text == b.text && a.html == b.html
            && a.headers.map { "\($0.0):\($0.1)" } == b.headers.map { "\($0.0):\($0.1)" }
    }

    /// The bare address of `from` (inside `<…>` when a display name is given), for `MAIL FROM`.
    package var envelopeFrom: String {
        guard let open = from.lastIndex(of: "<"), let close = from.lastIndex(of: ">"), open < close else { return Self.clean(from) }
        return Self.clean(String(from[from.index(after: open)..<close]))
    }

    /// RFC 5322 text with CRLF line ends; bodies are base64 so that any script and any line
    /// length survive every relay, and no body line can start with a dot.
    package func rendered(date: Date = Date(), messageId: String = UUID().uuidString) -> String {
        var lines = [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(Self.encodeHeader(from))",
            "To: \(Self.clean(to))",
            "Subject: \(Self.encodeHeader(subject))",
            "Message-ID: <\(Self.clean(messageId))@\(Self.domain(of: envelopeFrom))>",
            "MIME-Version: 1.0",
        ]
        for (name, value) in headers where Self.isToken(name) { lines.append("\(name): \(Self.encodeHeader(value))") }
        if let html {
            let boundary = "rooftop-" + UUID().uuidString
            lines.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
            lines.append("")
            lines.append("--\(boundary)")
            lines += Self.part("text/plain", text)
            lines.append("--\(boundary)")
            lines += Self.part("text/html", html)
            lines.append("--\(boundary)--")
        } else {
            lines += Self.part("text/plain", text)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func part(_ type: String, _ body: String) -> [String] {
        ["Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""] + base64Lines(body)
    }

    static func base64Lines(_ text: String) -> [String] {
        let encoded = Data(text.utf8).base64EncodedString()
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }

    /// Removes CR, LF and NUL: a header value is one line.
    package static func clean(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }.map(Character.init))
    }

    /// ASCII stays readable; anything else becomes an RFC 2047 encoded word.
    static func encodeHeader(_ value: String) -> String {
        let value = clean(value)
        if value.unicodeScalars.allSatisfy({ $0.isASCII }) { return value }
        return "=?UTF-8?B?" + Data(value.utf8).base64EncodedString() + "?="
    }

    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
    }

    static func domain(of address: String) -> String {
        address.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
