import Foundation
import RooftopTesting
import Testing

/// Prometheus metrics on their own port: requests by route pattern and status, latency, sign-ups,
/// logins and failures, the mail queue, the database pool; never on the API's port.
extension ServerProcessTests {
    func exchange(_ port: Int, _ text: String) throws -> String {
        let connection = try Connection(port: port)
        connection.send(text)
        return connection.receiveAll()
    }

    func apiRequest(_ method: String, _ path: String, body: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: proc-app\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// The sample lines of `metric` whose labels include every one of `labels`.
    func samples(_ scrape: String, _ metric: String, _ labels: [String] = []) -> [String] {
        scrape.split(separator: "\n").map(String.init).filter { line in
            (line.hasPrefix(metric + "{") || line.hasPrefix(metric + " ")) && labels.allSatisfy { line.contains($0) }
        }
    }

    @Test func metricsAreOnTheirOwnPort() async throws {
        let dir = try temporaryDirectory("metrics")
        defer { try? FileManager.default.removeItem(at: dir) }
        let metricsPort = try Loopback.freePort()
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_METRICS_PORT": String(metricsPort)])
        defer { if process.isRunning { process.terminate() } }

        #expect(
            try exchange(port, apiRequest("POST", "/parse/users", body: #"{"username":"ana","password":"correct horse battery"}"#)).contains("201"))
        #expect(try exchange(port, apiRequest("POST", "/parse/login", body: #"{"username":"ana","password":"wrong wrong wrong"}"#)).contains("404"))
        for id in ["a1", "b2", "c3"] { #expect(try exchange(port, apiRequest("GET", "/parse/classes/Note/\(id)")).contains("404")) }
        #expect(try exchange(port, apiRequest("GET", "/parse/no/such/route")).contains("400 Bad Request"))
        #expect(!(try exchange(port, apiRequest("GET", "/metrics")).contains("rooftop_")), "the API's port serves no metrics")

        let scrape = try exchange(metricsPort, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(scrape.contains("200 OK") && scrape.contains("text/plain; version=0.0.4"), "\(scrape)")
        #expect(samples(scrape, "rooftop_http_requests_total", [#"route="/users""#, #"status="201""#]).first?.hasSuffix(" 1") == true, "\(scrape)")
        // Three ids, one series: the route's pattern, not the path.
        let notes = samples(scrape, "rooftop_http_requests_total", [#"route="/classes/:className/:objectId""#, #"status="404""#])
        #expect(notes.count == 1 && notes.first?.hasSuffix(" 3") == true, "\(notes)")
        // Unknown routes and paths outside the mount share one series per status.
        #expect(samples(scrape, "rooftop_http_requests_total", [#"route="unmatched""#, #"status="400""#]).count == 1)
        #expect(samples(scrape, "rooftop_http_requests_total", [#"route="unmatched""#, #"status="404""#]).count == 1)
        #expect(samples(scrape, "rooftop_signups_total").first?.hasSuffix(" 1") == true)
        #expect(samples(scrape, "rooftop_login_failures_total").first?.hasSuffix(" 1") == true)
        #expect(!samples(scrape, "rooftop_http_request_duration_seconds_bucket", [#"route="/login""#]).isEmpty, "\(scrape)")
        #expect(!samples(scrape, "rooftop_mail_messages", [#"state="pending""#]).isEmpty, "\(scrape)")
        // The database pool: SQLite's five readers and one writer, none held or awaited once
        // every request (failed ones too) has ended.
        func value(_ state: String) -> Double? {
            samples(scrape, "rooftop_db_connections", [#"state="\#(state)""#]).first?.split(separator: " ").last.flatMap { Double($0) }
        }
        #expect(value("capacity") == 6, "\(scrape)")
        #expect(value("in_use") == 0 && value("waiting") == 0, "\(scrape)")
        try await stop(process)
    }

    @Test func metricsAreOffByDefault() async throws {
        let dir = try temporaryDirectory("no-metrics")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir)
        defer { if process.isRunning { process.terminate() } }
        #expect(!(try exchange(port, apiRequest("GET", "/metrics")).contains("rooftop_")))
        let output = try runCommand(binary, ["config", "print", "--data-dir", dir.path]).1
        #expect(output.contains(#""metricsPort": 0"#), "\(output)")
        try await stop(process)
    }
}
