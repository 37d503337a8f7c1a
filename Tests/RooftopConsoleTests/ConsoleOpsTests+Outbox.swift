import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopMail
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// The mail outbox pages: newest first, paged, one message's text escaped, names from the URL
/// checked against the outbox's own pattern, bodies for owners only.
extension ConsoleOpsTests {
    @Test func outboxListsNewestFirstAndShowsOneEscaped() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outboxDir = dir.appendingPathComponent("outbox").path
        let stores = StoreBox()
        try await withServer(wrap: stores.keep, dependencies: { $0.outboxDirectory = outboxDir }) { client in
            let outbox = FileOutbox(directory: outboxDir)
            let names = try await deliver(outbox, 30) { $0 == 29 ? "Réinitialiser <b>" : "Message \($0)" }
            let (cookies, _) = try await signIn(client, try stores.store)
            let list = try await consoleRequest(client, .get, "/console/outbox", cookies: cookies)
            #expect(list.status == 200)
            let nav = try #require(list.html.components(separatedBy: "</nav>").first?.components(separatedBy: "<nav").last)
            #expect(nav.contains("<a href=\"/console/outbox\" aria-current=\"page\">Outbox</a>"), "the nav shows the outbox")
            // Newest first: message 29 heads page 1, 25 a page.
            let first = try #require(list.html.range(of: "user29@example.com"))
            let second = try #require(list.html.range(of: "user28@example.com"))
            #expect(first.lowerBound < second.lowerBound)
            #expect(list.html.contains("Réinitialiser &lt;b&gt;") && !list.html.contains("<b>"))
            #expect(!list.html.contains("user4@example.com"))
            #expect(list.html.contains("href=\"/console/outbox?page=2\""))
            let page2 = try await consoleRequest(client, .get, "/console/outbox?page=2", cookies: cookies)
            #expect(page2.html.contains("user4@example.com") && page2.html.contains("user0@example.com") && !page2.html.contains("user5@"))
            // Hostile page numbers land on a page that exists.
            for (query, expected) in [
                ("99999999999999999999", "user29@"), ("9223372036854775807", "user0@"), ("-3", "user29@"), ("x", "user29@"), ("%00", "user29@"),
            ] {
                let page = try await consoleRequest(client, .get, "/console/outbox?page=\(query)", cookies: cookies)
                #expect(page.status == 200 && page.html.contains(expected), "\(query)")
            }
            // One message: the text part, escaped; the link as text, not an anchor.
            let shown = try await consoleRequest(client, .get, "/console/outbox/\(names[3])", cookies: cookies)
            #expect(shown.status == 200)
            #expect(
                shown.html.contains(
                    "Hello &lt;script&gt;alert(3)&lt;/script&gt; &amp; reset: https://example.com/parse/apps/test-app/request_password_reset?token&#61;tok3"
                ) || shown.html.contains("request_password_reset?token=tok3"), "\(shown.html)")
            #expect(!shown.html.contains("<script>alert") && !shown.html.contains("href=\"https://example.com"))
            #expect(!shown.html.contains("<p>3</p>"), "the HTML part is not shown")
            // Hostile names: never a path, always 404.
            for name in [
                "..", "..%2F..%2Fetc%2Fpasswd", "%2E%2E", names[3] + "%00", "%00", String(names[3].dropLast(4)), names[3].uppercased(),
                "1-1-abcdefgh.eml", "0-000000001-00000000.eml",
            ] {
                let refused = try await consoleRequest(client, .get, "/console/outbox/\(name)", cookies: cookies)
                #expect(refused.status == 404, "\(name)")
            }
            let nested = try await consoleRequest(client, .get, "/console/outbox/../../etc/passwd", cookies: cookies)
            #expect(nested.status == 404)
            // A read-only admin sees the list, never a body (its links could take over an account).
            let (viewer, _) = try await signIn(client, try stores.store, "viewer", role: .readOnly)
            #expect(try await consoleRequest(client, .get, "/console/outbox", cookies: viewer).status == 200)
            let refused = try await consoleRequest(client, .get, "/console/outbox/\(names[3])", cookies: viewer)
            #expect(refused.status == 403 && !refused.html.contains("tok3"))
        }
    }

    @Test func withoutTheOutboxTheNavHidesItAndThePageSaysSo() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (cookies, _) = try await signIn(client, try stores.store)
            let status = try await consoleRequest(client, .get, "/console/status", cookies: cookies)
            let nav = try #require(status.html.components(separatedBy: "</nav>").first?.components(separatedBy: "<nav").last)
            #expect(nav.contains("/console/status") && !nav.contains("/console/outbox"))
            let page = try await consoleRequest(client, .get, "/console/outbox", cookies: cookies)
            #expect(page.status == 200 && page.html.contains("Mail is not written to the outbox here"))
            #expect(try await consoleRequest(client, .get, "/console/outbox/1-000000001-abcdef12.eml", cookies: cookies).status == 404)
        }
    }

    @Test func outboxNamesAreAnAllowList() {
        #expect(FileOutbox.isMessageName("1700000000000-000000001-0a1b2c3d.eml"))
        for name in [
            "..", ".", "", "/etc/passwd", "../1700000000000-000000001-0a1b2c3d.eml", "1700000000000-000000001-0a1b2c3d.eml\u{0}",
            ".1700000000000-000000001-0a1b2c3d.eml", "1700000000000-000000001-0A1B2C3D.eml", "1700000000000-000000001-0a1b2c3d.txt",
            "1700000000000-000000001-0a1b2c3d", "a-000000001-0a1b2c3d.eml", "1-2-3-0a1b2c3d.eml",
            String(repeating: "1", count: 80) + "-1-0a1b2c3d.eml",
            "1700000000000-000000001-0a1b2c3/.eml", "１-1-0a1b2c3d.eml",
        ] {
            #expect(!FileOutbox.isMessageName(name), "\(name)")
        }
    }
}
