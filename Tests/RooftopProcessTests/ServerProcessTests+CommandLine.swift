import Foundation
import Glibc
import RooftopTesting
import Testing

/// What the `rooftop` command line says when something goes wrong at run time: one line naming
/// the port, the file and line, or the variable, and what to do; an exit status per kind of
/// failure (sysexits.h); no usage text unless the command line itself was wrong.
extension ServerProcessTests {
    var binary: URL { Self.root.appendingPathComponent(".build/debug/rooftop") }

    @Test func aPortInUseIsNamedWithWhatToDo() async throws {
        let dir = try temporaryDirectory("port-a")
        let second = try temporaryDirectory("port-b")
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: second)
        }
        let (process, port) = try await launch(in: dir)
        defer { if process.isRunning { process.terminate() } }
        let (status, output) = try runCommand(binary, ["serve", "--port", String(port), "--data-dir", second.path])
        #expect(status == 69, "\(output)")
        #expect(output.contains("port \(port) on 127.0.0.1 is already in use") && output.contains("--port"), "\(output)")
        #expect(!output.contains("Usage:") && !output.contains("errno"), "\(output)")
        try await stop(process)
    }

    @Test func configurationErrorsNameTheFileLineAndVariable() throws {
        let dir = try temporaryDirectory("cli-config")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("rooftop.json")
        try "{\n  \"appName\": \"Notes\",\n  \"port\": 13x7\n}\n".write(to: file, atomically: true, encoding: .utf8)
        var (status, output) = try runCommand(binary, ["config", "print", "--data-dir", dir.path])
        #expect(status == 78, "\(output)")
        #expect(output.contains("rooftop.json:3:13: Invalid JSON"), "\(output)")
        #expect(!output.contains("Usage:"), "\(output)")

        try "{}".write(to: file, atomically: true, encoding: .utf8)
        (status, output) = try runCommand(binary, ["config", "print", "--data-dir", dir.path], environment: ["ROOFTOP_SESSION_LENGTH": "soon"])
        #expect(status == 78 && output.contains("ROOFTOP_SESSION_LENGTH: sessionLength"), "\(output)")
        (status, output) = try runCommand(binary, ["config", "print", "--data-dir", dir.path], environment: ["PARSE_SERVER_SESSION_LENGTH": "soon"])
        #expect(status == 78 && output.contains("PARSE_SERVER_SESSION_LENGTH: sessionLength"), "\(output)")

        (status, output) = try runCommand(binary, ["serve", "--data-dir", dir.path, "--config", dir.appendingPathComponent("nope.json").path])
        #expect(status == 78 && output.contains("nope.json does not exist") && !output.contains("Usage:"), "\(output)")
    }

    @Test func missingInputsAndCommandLineMistakesAreTold() throws {
        let dir = try temporaryDirectory("cli-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        var (status, output) = try runCommand(binary, ["explain", "--data-dir", dir.path, "--class", "Note"])
        #expect(status == 66 && output.contains("no database at") && !output.contains("Usage:"), "\(output)")
        (status, output) = try runCommand(binary, ["import", "--data-dir", dir.path, "--input", dir.appendingPathComponent("none.jsonl").path])
        #expect(status == 66 && output.contains("none.jsonl"), "\(output)")
        // A mistake in the command line itself: usage, 64.
        (status, output) = try runCommand(binary, ["serve", "--bogus"])
        #expect(status == 64 && output.contains("Usage:"), "\(output)")
    }

    @Test func everyCommandAnswersVersion() throws {
        for arguments in [["--version"], ["serve", "--version"], ["config", "print", "--version"], ["export", "--version"]] {
            let (status, output) = try runCommand(binary, arguments)
            #expect(status == 0 && output.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(arguments): \(output)")
        }
    }

    /// Each default is said once: not in the help text and again by ArgumentParser.
    @Test func helpSaysEachDefaultOnce() throws {
        let commands = [[], ["serve"], ["config", "print"], ["outbox", "list"], ["audit"], ["export"], ["import"], ["backup"], ["explain"]]
        for command in commands {
            let (status, output) = try runCommand(binary, command + ["--help"])
            #expect(status == 0, "\(command): \(output)")
            let twice = output.range(of: #"\(default[^)]*\)\.?\s+\(default:"#, options: .regularExpression)
            #expect(twice == nil, "\(command): \(output)")
        }
    }

    /// The first Ctrl-C waits for requests in flight (up to the graceful timeout, here a minute);
    /// a second stops at once.
    @Test func aSecondInterruptStopsAtOnce() async throws {
        let dir = try temporaryDirectory("sigint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_GRACEFUL_SHUTDOWN_TIMEOUT": "60"])
        defer { if process.isRunning { process.terminate() } }
        let body = #"{"title":"never finished"}"#
        let stalled = try Connection(port: port)
        stalled.send(request("POST", "/parse/classes/Note", body: body) + String(body.prefix(5)))
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGINT)
        try await Task.sleep(for: .milliseconds(500))
        #expect(process.isRunning, "the first interrupt waits for the request in flight")
        kill(process.processIdentifier, SIGINT)
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!process.isRunning, "still running 10 s after a second interrupt, with 50 s of grace left")
        #expect(process.terminationStatus == 130)
        let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
        #expect(output.contains("second interrupt"), "\(output)")
        #expect(
            output.contains(
                "rooftop: stopping (draining): requests in flight may finish, up to 60 s; press Ctrl-C again to stop at once\n"),
            "the first interrupt is answered: \(output)")
        // The banner names the console and, with no admin yet, the command that creates one,
        // with the data directory the server was started with.
        #expect(output.contains("Admin console: http://127.0.0.1:\(port)/console\n"), "\(output)")
        #expect(output.contains("    rooftop admin create NAME --data-dir \(dir.path)\n"), "\(output)")
    }
}
