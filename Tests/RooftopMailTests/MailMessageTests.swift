import Foundation
import RooftopMail
import Testing

@Suite struct MailMessageTests {
    func decodedParts(_ text: String) -> [String] {
        // Every base64 block between part headers, decoded.
        var parts: [String] = []
        var block: [String] = []
        var inBody = false
        for line in text.components(separatedBy: "\r\n") {
            if line.isEmpty {
                inBody = true
                continue
            }
            if line.hasPrefix("--") || line.hasPrefix("Content-") {
                if !block.isEmpty, let data = Data(base64Encoded: block.joined()) { parts.append(String(decoding: data, as: UTF8.self)) }
                block = []
                inBody = false
                continue
            }
            if inBody { block.append(line) }
        }
        if !block.isEmpty, let data = Data(base64Encoded: block.joined()) { parts.append(String(decoding: data, as: UTF8.self)) }
        return parts
    }

    /// CR/LF in anything that reaches a header cannot add a header (`Bcc:`) or end the block.
    @Test func headerValuesCannotInjectHeaders() {
        let message = MailMessage(
            from: "App\r\nBcc: victim@example.com <no-reply@example.com>", to: "ana@example.com\r\nBcc: x@example.com",
            subject: "Hi\r\n\r\nbody", text: "t", headers: [("X-Kind", "a\nb"), ("Bad Name", "x")])
        let text = message.rendered()
        let headerBlock = text.components(separatedBy: "\r\n\r\n")[0]
        let names = headerBlock.components(separatedBy: "\r\n").map { $0.prefix { $0 != ":" } }
        #expect(!names.contains("Bcc"))
        #expect(!names.contains("Bad Name"))
        #expect(headerBlock.contains("To: ana@example.comBcc: x@example.com"))
        #expect(headerBlock.contains("X-Kind: ab"))
        #expect(message.envelopeFrom == "no-reply@example.com")
    }

    /// Japanese subject and bodies survive: RFC 2047 subject, base64 UTF-8 parts, lines ≤ 76.
    @Test func unicodeSubjectAndBodies() {
        let message = MailMessage(
            from: "no-reply@example.com", to: "ana@example.com", subject: "メールアドレスの確認",
            text: "こんにちは\n.dot line " + String(repeating: "x", count: 200),
            html: "<p>こんにちは</p>")
        let text = message.rendered()
        #expect(text.contains("Subject: =?UTF-8?B?" + Data("メールアドレスの確認".utf8).base64EncodedString() + "?="))
        #expect(text.contains("Content-Type: multipart/alternative; boundary="))
        #expect(decodedParts(text) == [message.text, "<p>こんにちは</p>"])
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
        #expect(!text.components(separatedBy: "\r\n").contains { $0.hasPrefix(".") })
        #expect(text.hasSuffix("\r\n"))
    }

    /// The outbox writes one 0600 file per message in a 0700 directory, and reads them back.
    @Test func fileOutboxWritesPrivateFiles() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = FileOutbox(directory: dir.path + "/outbox")
        try await outbox.deliver(MailMessage(from: "a@example.com", to: "ana@example.com", subject: "確認", text: "link: https://x/y?token=abc"))
        try await outbox.deliver(MailMessage(from: "a@example.com", to: "bob@example.com", subject: "Second", text: "two"))
        // Back to back, several land in the same millisecond: still listed in the order written.
        let more = (1...20).map { "n\($0)@example.com" }
        for to in more { try await outbox.deliver(MailMessage(from: "a@example.com", to: to, subject: "More", text: "more")) }
        let entries = try outbox.list()
        #expect(entries.map(\.to) == ["ana@example.com", "bob@example.com"] + more)
        #expect(entries.first?.subject == "確認")
        let attributes = try FileManager.default.attributesOfItem(atPath: outbox.directory + "/" + (entries.first?.name ?? ""))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: outbox.directory)
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
        // Time and sequence number: a unique prefix.
        let shown = try outbox.show(String(entries[0].name.prefix(23)))
        #expect(shown.contains("Subject: 確認"))
        #expect(shown.contains("link: https://x/y?token=abc"))
        #expect(throws: MailError.self) { try outbox.show("nothing-like-this") }
    }

    /// `rooftop outbox show`'s reading: headers once-spaced (no empty line between a part's
    /// headers), each body decoded in its place.
    @Test func readableKeepsHeadersOnceSpaced() throws {
        let message = MailMessage(from: "a@example.com", to: "b@example.com", subject: "Hi", text: "Hello\nhttps://x/y", html: "<p>Hello</p>")
        let rendered = message.rendered(messageId: "m1")
        let boundaryStart = try #require(rendered.range(of: "boundary=\""))
        let boundary = String(rendered[boundaryStart.upperBound...].prefix { $0 != "\"" })
        let readable = FileOutbox.readable(rendered)
        let body = try #require(readable.range(of: "MIME-Version: 1.0\n"))
        #expect(
            String(readable[body.lowerBound...]) == """
                MIME-Version: 1.0
                Content-Type: multipart/alternative; boundary="\(boundary)"

                --\(boundary)
                Content-Type: text/plain; charset=utf-8
                Content-Transfer-Encoding: base64

                Hello
                https://x/y
                --\(boundary)
                Content-Type: text/html; charset=utf-8
                Content-Transfer-Encoding: base64

                <p>Hello</p>
                --\(boundary)--

                """)
        #expect(readable.hasPrefix("Date: ") && readable.contains("\nSubject: Hi\nMessage-ID: <m1@example.com>\nMIME-Version: 1.0\n"))
    }
}
