import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A login is one write transaction: the session, its audit record, the cap on the user's
/// sessions and the record of the device it came from go to the database together (the cap's
/// own audit records, when it ends sessions, follow: `SessionHardeningTests`).
@Suite struct LoginWriteTests: LiveServerTest {
    @Test func aLoginWritesOnceAndRemembersItsDevice() async throws {
        let writes = LockedCounter()
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outbox) }
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let mail = AccountMail(
            queue: MailQueue(transport: FileOutbox(directory: outbox.path), firstDelay: .milliseconds(10), logger: logger), templates: .builtIn,
            locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo", publicServerURL: publicURL, appId: testAppId)
        try await withServer(mail: mail, wrap: { ObservedStore(inner: $0, beforeWrite: { _ in writes.add() }) }) {
            (client: any TestClientProtocol) async throws in
            let body = #"{"username":"ana","password":"pass phrase 1","email":"ana@example.com"}"#
            let phone = ["User-Agent": "Phone/1"]
            #expect(try await call(client, .post, "/parse/users", body: body, headers: phone).status == 201)
            #expect(writes.value == 1, "sign-up: the user, its session, its audit record and its device in one write")
            var tokens: [String] = []
            for _ in 0..<3 {
                let before = writes.value
                let login = try await call(client, .post, "/parse/login", body: body, headers: phone)
                tokens.append(try #require(login.json["sessionToken"]?.stringValue, "\(login.json)"))
                #expect(writes.value == before + 1, "a login from a known device: one write")
            }
            let sessions = try await call(client, .get, "/parse/classes/_Session", master: true)
            #expect(sessions.json["results"]?.arrayValue?.count == 4)
            // Each login's audit record went with it.
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22%3A%22login%22%7D", master: true)
            #expect(audit.json["results"]?.arrayValue?.count == 3, "\(audit.json)")
            // A new device's notice is mailed after the answer; the known device's logins sent
            // none (the queue is first in, first out: theirs would be there before it).
            let laptop = try await call(client, .post, "/parse/login", body: body, headers: ["User-Agent": "Laptop/2"])
            #expect(laptop.status == 200)
            try await waitUntil(.seconds(10)) { Self.mails(outbox).count >= 1 }
            #expect(Self.mails(outbox).count == 1)
            // Twice from it is once new: a third device's notice comes next.
            _ = try await call(client, .post, "/parse/login", body: body, headers: ["User-Agent": "Laptop/2"])
            _ = try await call(client, .post, "/parse/login", body: body, headers: ["User-Agent": "Tablet/3"])
            try await waitUntil(.seconds(10)) { Self.mails(outbox).contains { $0.contains("Tablet/3") } }
            let sent = Self.mails(outbox)
            #expect(sent.count == 2 && sent[0].contains("Laptop/2"), "\(sent)")
        }
    }

    /// The outbox's messages, oldest first.
    static func mails(_ outbox: URL) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }
        return names.sorted().compactMap { name in
            (try? String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8)).map(FileOutbox.readable)
        }
    }
}

/// A count that concurrent writers share.
final class LockedCounter: Sendable {
    private let count = LockedValue(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
