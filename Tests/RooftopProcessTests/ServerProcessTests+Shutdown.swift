import Foundation
import RooftopTesting
import Testing

/// `rooftop serve` stops in order: requests, then the account work they started, then the mail
/// queue, then the database. A reset requested just before SIGTERM is still mailed, though its
/// token write was still waiting for the database when the signal came.
extension ServerProcessTests {
    @Test func aResetAnsweredJustBeforeSIGTERMIsStillMailed() async throws {
        let dir = try temporaryDirectory("drain")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A real SMTP server: a delivery is a real dialogue, not a file written in a moment.
        let smtp = try SMTPTestServer()
        defer { smtp.stop() }
        // No default limits: the reset's answer then writes nothing and comes at once, and
        // only its work after the answer meets the lock below.
        let mail = #"{"transport":"smtp","host":"127.0.0.1","port":\#(smtp.port),"security":"none","from":"app@example.com"}"#
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_DEFAULT_RATE_LIMITS": "false", "ROOFTOP_MAIL": mail])
        defer { if process.isRunning { process.terminate() } }
        let signup = #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#
        #expect(try exchange(port, apiRequest("POST", "/parse/users", body: signup)).contains("201"))

        // Another connection holds the database's write lock for 2 s (a long transaction, a
        // backup): the reset's token write waits for it, well past the SIGTERM.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('BEGIN IMMEDIATE')\n"
                + "print('locked', flush=True)\ntime.sleep(2)\nc.execute('COMMIT')",
            dir.appendingPathComponent("data.db").path,
        ]
        let pipe = Pipe()
        holder.standardOutput = pipe
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        let first = pipe.fileHandleForReading.availableData
        #expect(String(decoding: first, as: UTF8.self).contains("locked"))

        let answer = try exchange(port, apiRequest("POST", "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#))
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("{}"), "\(answer)")
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<150 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!process.isRunning, "stopped within 15 s")
        #expect(process.terminationStatus == 0)

        let received = smtp.messages()
        #expect(received.contains { $0.contains("To: ana@example.com") && $0.contains("X-Rooftop-Kind: password_reset") }, "\(received)")
        let log = (try? String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("finished 1 account task(s) before stopping"), "\(log)")
    }
}
