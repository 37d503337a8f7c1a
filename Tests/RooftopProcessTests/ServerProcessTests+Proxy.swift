import Foundation
import RooftopTesting
import Testing

/// Behind a reverse proxy that is not trusted, the log says so once, with the setting to fix.
extension ServerProcessTests {
    func forwardedHealth(port: Int) throws -> String {
        let connection = try Connection(port: port)
        connection.send("GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.9\r\nConnection: close\r\n\r\n")
        return connection.receiveAll()
    }

    func warnings(trusting proxies: String?) async throws -> Int {
        let dir = try temporaryDirectory("proxy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir, environment: proxies.map { ["ROOFTOP_TRUST_PROXY": $0] } ?? [:])
        defer { if process.isRunning { process.terminate() } }
        for _ in 0..<3 { #expect(try forwardedHealth(port: port).contains("200 OK")) }
        try await stop(process)
        let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
        #expect(!output.contains("203.0.113.9"), "the forwarded address is not the one named: \(output)")
        return output.components(separatedBy: "X-Forwarded-For from 127.0.0.1, which is not a trusted proxy").count - 1
    }

    @Test func anUntrustedProxyIsNamedOnce() async throws {
        #expect(try await warnings(trusting: nil) == 1)
        #expect(try await warnings(trusting: "127.0.0.1") == 0)
    }

    /// The configuration docs/deployment.md shows for a server behind a proxy is one the server
    /// accepts as written.
    @Test func theDeploymentGuidesConfigurationIsAccepted() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "```json\n"))
        let end = try #require(guide.range(of: "\n```", range: start.upperBound..<guide.endIndex))
        let dir = try temporaryDirectory("guide")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("rooftop.json")
        try String(guide[start.upperBound..<end.lowerBound]).write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try runCommand(binary, ["config", "print", "--data-dir", dir.path, "--config", file.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""trustProxy": ["#) && output.contains(#""appName": "Notes""#), "\(output)")
    }
}
