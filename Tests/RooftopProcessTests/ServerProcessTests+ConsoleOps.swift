import Foundation
import RooftopTesting
import Testing

/// `rooftop serve` wires the console's operations pages: rates from the metrics port's
/// registry, the file outbox (the default transport) in the navigation, and the export.
extension ServerProcessTests {
    /// One raw request's answer split into header lines and body.
    func consoleExchange(_ port: Int, _ method: String, _ path: String, cookie: String? = nil, form: [String: String]? = nil) throws -> (
        headers: [String], body: String
    ) {
        let body = form.map { ConsoleTestForm.encode($0) } ?? ""
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        if form != nil { text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n" }
        let reply = try exchange(port, text + "\r\n" + body)
        let parts = reply.components(separatedBy: "\r\n\r\n")
        return (parts[0].components(separatedBy: "\r\n"), parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The value `name=` sets in a `Set-Cookie` header line.
    func cookieValue(_ headers: [String], _ name: String) -> String? {
        let prefix = "set-cookie: \(name)="
        guard let line = headers.first(where: { $0.lowercased().hasPrefix(prefix) }) else { return nil }
        return String(line.dropFirst(prefix.count).prefix { $0 != ";" })
    }

    func hiddenCSRF(_ html: String) -> String? {
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func serveWiresTheConsoleOperations() async throws {
        let dir = try temporaryDirectory("console-ops")
        defer { try? FileManager.default.removeItem(at: dir) }
        let password = "console passphrase 1"
        let (created, output) = try rooftop(["admin", "create", "ops", "--data-dir", dir.path], input: password + "\n")
        #expect(created == 0, "\(output)")
        let metricsPort = try Loopback.freePort()
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_METRICS_PORT": String(metricsPort)])
        defer { if process.isRunning { process.terminate() } }
        let signup = #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#
        #expect(try exchange(port, apiRequest("POST", "/parse/users", body: signup)).contains("201"))
        #expect(try exchange(port, apiRequest("POST", "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#)).contains("200 OK"))

        let login = try consoleExchange(port, "GET", "/console/login")
        let loginCookie = try #require(cookieValue(login.headers, "rooftop_console_login"), "\(login.headers)")
        let loginCSRF = try #require(hiddenCSRF(login.body))
        let signedIn = try consoleExchange(
            port, "POST", "/console/login", cookie: "rooftop_console_login=\(loginCookie)",
            form: ["csrf": loginCSRF, "name": "ops", "password": password])
        let token = try #require(cookieValue(signedIn.headers, "rooftop_console"), "\(signedIn.headers)")
        let session = "rooftop_console=" + token
        let status = try consoleExchange(port, "GET", "/console/status", cookie: session)
        #expect(status.body.contains("class=\"ops-rates\""), "metrics on: the rates table")
        let nav = try #require(status.body.components(separatedBy: "</nav>").first?.components(separatedBy: "<nav").last)
        #expect(nav.contains("<a href=\"/console/outbox\">Outbox</a>"), "the outbox transport: in the navigation")
        // The reset mail reaches the outbox through the mail queue (bounded: 10 s).
        var outbox = ""
        for _ in 0..<100 where !outbox.contains("ana@example.com") {
            outbox = try consoleExchange(port, "GET", "/console/outbox", cookie: session).body
            if !outbox.contains("ana@example.com") { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(outbox.contains("ana@example.com"), "\(outbox)")
        let csrf = try #require(hiddenCSRF(status.body))
        let export = try consoleExchange(port, "POST", "/console/export", cookie: session, form: ["csrf": csrf])
        #expect(export.headers.first?.contains("200") == true, "\(export.headers)")
        #expect(export.headers.contains { $0.lowercased().hasPrefix("content-disposition: attachment; filename=\"rooftop-export-") })
        #expect(export.body.contains(#"{"format":"rooftop-export","version":1}"#))
        try await stop(process)
    }
}
