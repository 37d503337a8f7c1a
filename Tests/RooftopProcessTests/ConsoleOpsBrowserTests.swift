import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopHTTP
import RooftopMail
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// The operations pages in a real headless Chromium (`Tests/Support/console_browser_ops.py`):
/// the status page's rates after real requests on the controllable clock, the export downloaded
/// with the button, the outbox and one message, in English and Japanese, with desktop and phone
/// screenshots in `.build/console-screenshots/`. It counts requests in the process's one metrics
/// registry, as `ConsoleOpsTests` (serialized) does in RooftopConsoleTests' process; here the
/// process tests run one at a time.
@Suite struct ConsoleOpsBrowserTests: LiveServerTest {
    let password = "console passphrase 1"

    @Test func operationsPagesInABrowser() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outboxDir = dir.appendingPathComponent("outbox").path
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(
            configure: { _, http in http.metrics.enabled = true }, clock: clock, wrap: stores.keep,
            dependencies: {
                $0.metrics = .shared
                $0.outboxDirectory = outboxDir
            }
        ) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            _ = try await deliver(FileOutbox(directory: outboxDir), 3)
            // A sample before the requests, then 60 requests (15 refused) over one minute.
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            _ = try await consoleRequest(client, .get, "/console/status", cookies: ["rooftop_console": session])
            for _ in 0..<45 { _ = try await call(client, .get, "/parse/classes/Note", master: true) }
            for _ in 0..<15 { _ = try await call(client, .get, "/parse/classes/Note/missing", master: true) }
            clock.advance(by: .seconds(60))
            let port = try #require(client.port)
            let downloads = dir.appendingPathComponent("downloads")
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_ops.py").path, "http://127.0.0.1:\(port)/console",
                    "ops", password, ConsoleBrowserTests.screenshots.path, downloads.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["status_ja"] == "状態")
            // 60 requests and 15 errors in the minute, plus the browser's own `/favicon.ico` (a 404 of
            // the API's port, counted like any other request).
            for (language, label) in [("en", "minute"), ("ja", "直近1分")] {
                let row = seen["rates_\(language)"]?.arrayValue?.first?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(row.count == 3 && row[0] == label, "\(output)")
                let (requests, errors) = (Double(row.dropFirst().first ?? "") ?? 0, Double(row.last ?? "") ?? 0)
                #expect(requests >= 1.0 && requests <= 1.05 && errors >= 0.25 && errors <= 0.3, "\(row)")
            }
            #expect(seen["export_en"] == "Export and backup")
            #expect(seen["export_ja"] == "エクスポートとバックアップ")
            #expect(seen["outbox_ja"] == "送信箱")
            #expect(seen["nav_en"]?.arrayValue?.contains("Outbox") == true)
            #expect(seen["outbox_rows_en"]?.arrayValue?.first?.stringValue?.contains("user2@example.com") == true, "newest first")
            let message = seen["message_en"]?.stringValue ?? ""
            #expect(message.contains("<script>alert(2)</script>") && message.contains("token=tok2"), "escaped, shown as text: \(message)")
            #expect(seen["message_links_en"] == 0, "no link in the message is clickable")
            #expect(seen["download"]?.stringValue?.hasPrefix("rooftop-export-") == true, "\(output)")
            for page in ["ops-status", "ops-export", "ops-outbox", "ops-message"] {
                for language in ["en", "ja"] {
                    #expect(
                        seen["page_overflow"]?["\(page)-\(language)"] == false, "\(page) \(language) \(seen["wide"]?["\(page)-\(language)"] ?? .null)"
                    )
                }
            }
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 16)
            let files = try FileManager.default.contentsOfDirectory(atPath: downloads.path).filter { $0.hasSuffix(".jsonl") }
            let file = try #require(files.first)
            let text = try String(contentsOfFile: downloads.appendingPathComponent(file).path, encoding: .utf8)
            #expect(text.hasPrefix(#"{"format":"rooftop-export","version":1}"#), "\(text.prefix(80))")
        }
    }
}
