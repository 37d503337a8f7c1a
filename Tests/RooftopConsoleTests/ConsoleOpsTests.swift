import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RooftopConsole
import RooftopCore
import RooftopHTTP
import RooftopSQLite
import RooftopServer
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// The console's operations pages over real HTTP against a real database: request rates read
/// from the Prometheus registry on the controllable clock, the export and backup downloads
/// (what `rooftop import` reads, owners only, CSRF-bound), and the mail outbox (in
/// `ConsoleOpsTests+Outbox.swift`).
/// Serialized: the rates test counts requests in the process's one metrics registry.
@Suite(.serialized) struct ConsoleOpsTests: ConsoleOpsTest {
    let password = "console passphrase 1"

    /// The `<td>`s of the rates table's row headed `label`.
    func rateRow(_ html: String, _ label: String) -> [String] {
        guard let row = html.range(of: "<th scope=\"row\">\(label)</th>") else { return [] }
        let tail = html[row.upperBound...]
        let rest = tail[..<(tail.range(of: "</tr>")?.lowerBound ?? tail.endIndex)]
        return rest.components(separatedBy: "<td>").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
    }

    @Test func statusRatesComeFromTheMetricsRegistry() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(
            configure: { _, http in http.metrics.enabled = true }, clock: clock, wrap: stores.keep,
            dependencies: { $0.metrics = .shared }
        ) { client in
            let (cookies, _) = try await signIn(client, try stores.store)
            let first = try await consoleRequest(client, .get, "/console/status", cookies: cookies)
            #expect(first.status == 200)
            #expect(rateRow(first.html, "minute") == ["—", "—"], "no history yet")
            #expect(first.html.contains("still collecting samples"))
            // 30 API requests, 12 of them errors (404); console pages are not counted.
            for _ in 0..<18 { #expect(try await call(client, .get, "/parse/classes/Note", master: true).status == 200) }
            for id in 0..<12 { #expect(try await call(client, .get, "/parse/classes/Note/nope\(id)", master: true).status == 404) }
            clock.advance(by: .seconds(60))
            let minute = try await consoleRequest(client, .get, "/console/status", cookies: cookies)
            #expect(rateRow(minute.html, "minute") == ["0.50", "0.20"], "\(minute.html)")
            #expect(rateRow(minute.html, "5 minutes") == ["—", "—"])
            // The pool gauge, read from the same registry: the store's capacity.
            let capacity = try #require(try stores.store.poolStatistics?.capacity)
            #expect(minute.html.contains(" / \(capacity)</dd>"), "\(minute.html)")
            clock.advance(by: .seconds(240))
            let five = try await consoleRequest(client, .get, "/console/status", cookies: cookies)
            #expect(rateRow(five.html, "5 minutes") == ["0.10", "0.04"], "\(five.html)")
            // Japanese words, same numbers.
            let ja = try await consoleRequest(client, .get, "/console/status?lang=ja", cookies: cookies)
            #expect(rateRow(ja.html, "直近5分") == ["0.10", "0.04"])
        }
    }

    @Test func statusWithoutMetricsSaysHowToTurnThemOn() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (cookies, _) = try await signIn(client, try stores.store)
            let page = try await consoleRequest(client, .get, "/console/status", cookies: cookies)
            #expect(page.status == 200)
            #expect(page.html.contains("Set metricsPort to turn them on."))
            #expect(!page.html.contains("ops-rates"))
        }
    }

    @Test func backupIsAConsistentSQLiteCopyOrPointsToPgDump() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stores = StoreBox()
        // SQLite whatever the run's backend: the backup copies SQLite's file.
        try await withServer(in: dir, wrap: stores.keep) { client in
            try await seed(client)
            let (cookies, csrf) = try await signIn(client, try stores.store)
            let page = try await consoleRequest(client, .get, "/console/backup", cookies: cookies)
            #expect(page.html.contains("action=\"/console/backup\""))
            let download = try await client.execute(
                uri: "/console/backup", method: .post,
                headers: [.cookie: "rooftop_console=\(cookies["rooftop_console"] ?? "")", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "csrf=\(csrf)")
            ) { response in (response.status.code, response.headers, Array(response.body.readableBytesView)) }
            #expect(download.0 == 200)
            #expect(download.1[.cacheControl] == "no-store")
            #expect(download.1[.contentDisposition]?.hasSuffix(".db\"") == true)
            #expect(download.2.starts(with: Array("SQLite format 3\0".utf8)))
            let copyDir = temporaryDataDirectory()
            try FileManager.default.createDirectory(at: copyDir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: copyDir) }
            let copyPath = copyDir.appendingPathComponent("data.db").path
            #expect(FileManager.default.createFile(atPath: copyPath, contents: Data(download.2)))
            let copy = try SQLiteStore(path: copyPath)
            var fromCopy = ""
            try await Transfer.export(copy, emit: { fromCopy += $0 + "\n" })
            try copy.close()
            var fromServer = ""
            try await Transfer.export(try stores.store, emit: { fromServer += $0 + "\n" })
            // The same rows, but for the audit event the backup itself wrote after the copy.
            let withoutBackupEvent = fromServer.split(separator: "\n").filter { !$0.contains("admin.backup") }.joined(separator: "\n") + "\n"
            #expect(fromCopy == withoutBackupEvent)
            #expect(fromCopy.contains("note 2"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".console-backup") }
            #expect(leftovers.isEmpty, "the temporary copy is deleted once streamed")
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.backup%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.first?["admin"] == "ops")
        }
        // PostgreSQL: no copy; the page points to pg_dump.
        if TestStores.usePostgres {
            let pg = StoreBox()
            try await withServer(wrap: pg.keep) { client in
                let (cookies, csrf) = try await signIn(client, try pg.store)
                let page = try await consoleRequest(client, .get, "/console/export", cookies: cookies)
                #expect(page.html.contains("app-pgdump.html") && !page.html.contains("action=\"/console/backup\""))
                let refused = try await consoleRequest(client, .post, "/console/backup", cookies: cookies, form: ["csrf": csrf])
                #expect(refused.status == 404)
            }
        }
    }

    @Test func downloadsAreOwnersOnlyAndNeedTheCSRFToken() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stores = StoreBox()
        try await withServer(in: dir, wrap: stores.keep) { client in
            try await seed(client)
            let (viewer, viewerCSRF) = try await signIn(client, try stores.store, "viewer", role: .readOnly)
            let page = try await consoleRequest(client, .get, "/console/export", cookies: viewer)
            #expect(page.status == 200)
            #expect(!page.html.contains("action=\"/console/export\"") && !page.html.contains("action=\"/console/backup\""))
            for path in ["/console/export", "/console/backup"] {
                let refused = try await consoleRequest(client, .post, path, cookies: viewer, form: ["csrf": viewerCSRF])
                #expect(refused.status == 403, "\(path)")
                #expect(refused.headers[.contentDisposition] == nil)
                // A GET never downloads, whoever asks.
                let get = try await consoleRequest(client, .get, path + "?download=1", cookies: viewer)
                #expect(get.headers[.contentDisposition] == nil && get.headers[.contentType] == "text/html; charset=utf-8")
            }
            let (owner, ownerCSRF) = try await signIn(client, try stores.store)
            for path in ["/console/export", "/console/backup"] {
                for form in [[:], ["csrf": ""], ["csrf": viewerCSRF], ["csrf": ownerCSRF + "x"], ["csrf": "\0"]] {
                    let refused = try await consoleRequest(client, .post, path, cookies: owner, form: form)
                    #expect(refused.status == 403, "\(path) \(form)")
                    #expect(refused.headers[.contentDisposition] == nil)
                }
                // Without a session (a cross-site form would carry none: SameSite=Strict).
                let anonymous = try await consoleRequest(client, .post, path, form: ["csrf": ownerCSRF])
                #expect(anonymous.status == 403)
            }
            for type in ["admin.export", "admin.backup"] {
                let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22\(type)%22%7D", master: true)
                #expect(events.json["results"]?.arrayValue?.isEmpty == true, "nothing refused was audited as done")
            }
            // The same owner with the right token gets it, replayed too (a download changes nothing).
            for _ in 0..<2 {
                let download = try await consoleRequest(client, .post, "/console/export", cookies: owner, form: ["csrf": ownerCSRF])
                #expect(download.status == 200)
            }
        }
    }

    @Test func metricsTextIsReadOnlyForTheSeriesTheConsoleShows() {
        let text = """
            # TYPE rooftop_http_requests_total counter
            rooftop_http_requests_total{method="GET",route="/classes/:className",status="200"} 18
            rooftop_http_requests_total{method="GET",route="/classes/:className/:objectId",status="404"} 12
            rooftop_http_requests_total{method="POST",route="/functions/:name",status="500"} 1
            rooftop_http_requests_total{method="GET",route="unmatched",status="40"} 7
            rooftop_http_requests_total_extra{status="500"} 99
            rooftop_http_request_duration_seconds_count{route="/login"} 5
            rooftop_db_connections{state="capacity"} 6
            rooftop_db_connections{state="in_use"} 2
            rooftop_db_connections{state="waiting"} 0
            rooftop_http_requests_total{status="503"} not-a-number
            garbage line
            """
        let reading = MetricsReading(text)
        #expect(reading.requests == 38)
        #expect(reading.errors == 13, "4xx and 5xx only; a label that is not a status is not an error")
        #expect(reading.pool == ["capacity": 6, "in_use": 2, "waiting": 0])
        #expect(MetricsReading("") == MetricsReading("\u{0}\n#\n{}"))
    }

    /// A status page reloaded every 100 ms for five minutes keeps the sample the five-minute
    /// rate starts from (page views closer than 5 s replace each other).
    @Test func reloadsDoNotPushOutTheOldestSamples() async throws {
        let rates = RequestRates()
        func reading(_ requests: Int) -> MetricsReading {
            MetricsReading("rooftop_http_requests_total{method=\"GET\",route=\"/x\",status=\"200\"} \(requests)")
        }
        let start: Int64 = 1_800_000_000_000
        await rates.record(reading(0), at: ParseDate(millisecondsSince1970: start))
        for step in 1...3_000 { await rates.record(reading(step), at: ParseDate(millisecondsSince1970: start + Int64(step) * 100)) }
        let now = ParseDate(millisecondsSince1970: start + 300_000)
        let rate = try #require(await rates.rate(window: 300_000, now: now, current: reading(3_000)))
        #expect(abs(rate.requests - 10) < 0.001, "3,000 requests in five minutes: \(rate.requests)/s")
    }
}
