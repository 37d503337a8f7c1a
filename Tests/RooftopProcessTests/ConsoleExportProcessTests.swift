import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// The console's export, imported by the real `rooftop` binary (`rooftop import`, then
/// `rooftop export`): the same bytes.
@Suite struct ConsoleExportProcessTests: ConsoleOpsTest {

    @Test func exportDownloadIsTheCLIExportAndImportsCleanly() async throws {
        let stores = StoreBox()
        let work = temporaryDataDirectory()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try await withServer(wrap: stores.keep) { client in
            try await seed(client)
            let (cookies, csrf) = try await signIn(client, try stores.store)
            let page = try await consoleRequest(client, .get, "/console/export", cookies: cookies)
            #expect(page.status == 200)
            #expect(page.html.contains("action=\"/console/export\""))
            let download = try await consoleRequest(client, .post, "/console/export", cookies: cookies, form: ["csrf": csrf])
            #expect(download.status == 200)
            #expect(download.headers[.cacheControl] == "no-store")
            #expect(download.headers[.contentType] == "application/x-ndjson")
            let disposition = try #require(download.headers[.contentDisposition])
            #expect(disposition.hasPrefix("attachment; filename=\"rooftop-export-") && disposition.hasSuffix(".jsonl\""), "\(disposition)")
            // The same lines `rooftop export` writes (one function behind both), read after.
            var expected = ""
            try await Transfer.export(try stores.store, emit: { expected += $0 + "\n" })
            #expect(download.html == expected)
            #expect(download.html.contains("\"bcryptPassword\"") || download.html.contains("_hashed_password"))
            // `rooftop import` into a fresh data directory, then its export: the same bytes.
            let file = work.appendingPathComponent("download.jsonl").path
            try download.html.write(toFile: file, atomically: true, encoding: .utf8)
            let fresh = work.appendingPathComponent("fresh").path
            var (status, output) = try ServerProcessTests().rooftop(["import", "--data-dir", fresh, "--input", file])
            #expect(status == 0, "\(output)")
            let again = work.appendingPathComponent("again.jsonl").path
            (status, output) = try ServerProcessTests().rooftop(["export", "--data-dir", fresh, "--output", again])
            #expect(status == 0, "\(output)")
            #expect(try String(contentsOfFile: again, encoding: .utf8) == download.html)
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.export%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.first?["admin"] == "ops")
        }
    }
}
