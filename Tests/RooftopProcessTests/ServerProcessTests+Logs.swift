import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// `logFormat: json`: every log event of the running server is one JSON object per line.
extension ServerProcessTests {
    @Test func jsonLogLinesCarryTheFieldsCollectorsRead() async throws {
        let dir = try temporaryDirectory("json-logs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_LOG_FORMAT": "json", "ROOFTOP_LOG_LEVEL": "verbose"])
        defer { if process.isRunning { process.terminate() } }
        #expect(try exchange(port, apiRequest("GET", "/parse/classes/Note/a1")).contains("404"))
        try await stop(process)

        let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("{") }
        let events = lines.compactMap { try? JSONParser.parse(String($0)) }
        #expect(!events.isEmpty && events.count == lines.count, "\(output)")
        #expect(events.allSatisfy { $0["time"]?.stringValue != nil && $0["level"]?.stringValue != nil && $0["label"] == "rooftop" })
        // The request line (verbose), with the route's path and status, and no query string.
        #expect(
            events.contains { $0["level"] == "debug" && $0["message"]?.stringValue?.hasPrefix("GET /parse/classes/Note/a1 404") == true }, "\(output)"
        )
        // Nothing else on standard error: no text line slipped past the JSON handler.
        let other = output.split(separator: "\n").filter { !$0.hasPrefix("{") && $0.contains(" info ") }
        #expect(other.isEmpty, "\(other)")
    }

    @Test func anUnknownLogFormatIsAConfigurationError() async throws {
        let dir = try temporaryDirectory("bad-log-format")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let (status, output) = try runCommand(
            binary, ["serve", "--port", "0", "--data-dir", dir.path], environment: ["ROOFTOP_LOG_FORMAT": "xml"])
        #expect(status == 78, "\(output)")
        #expect(output.contains("ROOFTOP_LOG_FORMAT") && output.contains("must be text or json"), "\(output)")
    }
}
