import Foundation
import NIOConcurrencyHelpers

/// Mail written to files instead of sent: one `.eml` per message in a directory (mode 0700,
/// files 0600, since messages carry single-use links). The quickstart's default, read with
/// `rooftop outbox list|show`.
package struct FileOutbox: MailTransport {
    /// The directory holding the messages.
    package let directory: String

    /// Uses (creating if needed) `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    /// Writes the message as `<time>-<sequence>-<id>.eml`, atomically, so a reader never sees
    /// half a file.
    package func deliver(_ message: MailMessage) async throws {
        let id = UUID().uuidString.prefix(8).lowercased()
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        // Two messages in one millisecond would otherwise sort by their random ids.
        let sequence = String(
            Self.sequence.withLockedValue { last in
                last += 1
                return last
            })
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let name = "\(stamp)-\(String(repeating: "0", count: max(0, 9 - sequence.count)))\(sequence)-\(id).eml"
            let temporary = directory + "/." + name
            let created = FileManager.default.createFile(
                atPath: temporary, contents: Data(message.rendered().utf8), attributes: [.posixPermissions: 0o600])
            guard created else { throw MailError(temporary: true, "cannot write to the outbox \(directory)") }
            try FileManager.default.moveItem(atPath: temporary, toPath: directory + "/" + name)
        } catch let error as MailError {
            throw error
        } catch {
            throw MailError(temporary: true, "cannot write to the outbox \(directory): \(error)")
        }
    }

    /// Numbers this process's messages, so their names sort in the order they were written.
    static let sequence = NIOLockedValueBox(0)

    /// One stored message: its file name and the headers needed to list it.
    package struct Entry: Sendable {
        /// The file name, which sorts by time.
        package var name: String
        /// `Date`, `To` and `Subject` as written (the subject may be an encoded word).
        package var date: String, to: String, subject: String
    }

    /// The messages, oldest first.
    package func list() throws -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return try names.filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }.sorted().map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let headers = Self.headers(text)
            return Entry(name: name, date: headers["date"] ?? "", to: headers["to"] ?? "", subject: Self.decodeHeader(headers["subject"] ?? ""))
        }
    }

    /// The message `name` (a file name, or a unique prefix of one), with its bodies decoded.
    package func show(_ name: String) throws -> String {
        let names = try list().map(\.name).filter { $0.hasPrefix(name) }
        guard names.count == 1, let found = names.first else {
            throw MailError(temporary: false, names.isEmpty ? "no message \(name) in \(directory)" : "\(name) matches \(names.count) messages")
        }
        return Self.readable(try String(contentsOfFile: directory + "/" + found, encoding: .utf8))
    }

    /// Header names (lowercased) to values, up to the blank line.
    static func headers(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.components(separatedBy: "\r\n") {
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// Undoes `MailMessage.encodeHeader`.
    static func decodeHeader(_ value: String) -> String {
        guard value.hasPrefix("=?UTF-8?B?"), value.hasSuffix("?="),
            let data = Data(base64Encoded: String(value.dropFirst(10).dropLast(2)))
        else { return value }
        return String(decoding: data, as: UTF8.self)
    }

    /// A rendered message's headers, then every base64 part decoded: for reading in a terminal,
    /// and for tests that follow a link from a received message.
    package static func readable(_ text: String) -> String {
        let lines = text.components(separatedBy: "\r\n")
        var out: [String] = []
        var inHeaders = true
        var base64: [String] = []
        // Only a body read so far: flushing at every part header would put an empty line
        // between the part's headers.
        func flush() {
            if !base64.isEmpty, let data = Data(base64Encoded: base64.joined()) { out.append(String(decoding: data, as: UTF8.self)) }
            base64 = []
        }
        for line in lines {
            if inHeaders {
                if line.isEmpty { inHeaders = false }
                out.append(line.hasPrefix("Subject: ") ? "Subject: " + decodeHeader(String(line.dropFirst(9))) : line)
            } else if line.hasPrefix("--") || line.hasPrefix("Content-") || line.isEmpty {
                flush()
                out.append(line)
            } else {
                base64.append(line)
            }
        }
        flush()
        return out.joined(separator: "\n")
    }
}
