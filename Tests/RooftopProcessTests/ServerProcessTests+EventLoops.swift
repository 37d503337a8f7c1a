import Foundation
import RooftopTesting
import Testing

/// `eventLoops`: how many threads serve HTTP, seen from outside as the process's threads.
extension ServerProcessTests {
    #if os(Linux)
        /// Names of the process's threads (`/proc/<pid>/task/*/comm`).
        func threadNames(_ pid: Int32) throws -> [String] {
            let tasks = "/proc/\(pid)/task"
            return try FileManager.default.contentsOfDirectory(atPath: tasks).map {
                try String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }

        @Test func theSettingIsTheNumberOfServingThreads() async throws {
            let dir = try temporaryDirectory("event-loops")
            defer { try? FileManager.default.removeItem(at: dir) }
            let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_EVENT_LOOPS": "3"])
            defer { if process.isRunning { process.terminate() } }
            #expect(try threadNames(process.processIdentifier).filter { $0.hasPrefix("http-loop-") }.count == 3)
            // Several connections at once, every one answered.
            let connections = try (0..<6).map { _ in try Connection(port: port) }
            for connection in connections { connection.send(request("GET", "/parse/health")) }
            #expect(connections.allSatisfy { $0.receiveAll().contains("200 OK") })
            try await stop(process)
            let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
            #expect(output.contains("serving HTTP on 3 event loops"), "\(output)")
        }

        @Test func byDefaultOneCoreIsLeftToTheRest() async throws {
            let dir = try temporaryDirectory("event-loops-default")
            defer { try? FileManager.default.removeItem(at: dir) }
            let (process, _) = try await launch(in: dir)
            defer { if process.isRunning { process.terminate() } }
            let loops = try threadNames(process.processIdentifier).filter { $0.hasPrefix("http-loop-") }.count
            try await stop(process)
            // The cores as NIO counts them (a container's CPU quota included) are in the log line.
            let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
            let line = try #require(output.split(separator: "\n").first { $0.contains("serving HTTP on") }, "\(output)")
            let cores = try #require(Int(line.split(separator: "(").last?.split(separator: " ").first ?? ""), "\(line)")
            #expect(loops == max(1, cores - 1), "\(line)")
            #expect(line.contains("serving HTTP on \(loops) event loop"), "\(line)")
        }
    #endif

    @Test func aNegativeNumberOfLoopsIsAConfigurationError() async throws {
        let dir = try temporaryDirectory("bad-event-loops")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let (status, output) = try runCommand(
            binary, ["serve", "--port", "0", "--data-dir", dir.path], environment: ["ROOFTOP_EVENT_LOOPS": "-1"])
        #expect(status == 78, "\(output)")
        #expect(output.contains("ROOFTOP_EVENT_LOOPS") && output.contains("must be 0 (automatic) or 1 to 1024 threads"), "\(output)")
    }
}
