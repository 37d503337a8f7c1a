package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server (aiosmtpd, `Tests/Support/smtp_server.py`) on 127.0.0.1 for the tests,
/// started as a child process and stopped by its PID.
///
/// The Python comes from `ROOFTOP_TEST_VENV` (default `/tmp/rooftop-test-venv`), which
/// `./scripts/test` creates with `aiosmtpd` and `trustme` from PyPI.
package final class SMTPTestServer: @unchecked Sendable {
    /// The server's port.
    package let port: Int
    /// Where received messages land, one `<n>.eml` each.
    package let maildir: URL
    /// The throwaway CA that signed the server's certificate, when TLS is on.
    package let caFile: String?
    private let process: Process
    private let directory: URL

    /// The repository's root, found from this file's path.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The test virtualenv's Python.
    package static var python: String {
        (ProcessInfo.processInfo.environment["ROOFTOP_TEST_VENV"] ?? "/tmp/rooftop-test-venv") + "/bin/python"
    }

    /// TLS modes the server can speak.
    package enum TLS: Sendable { case none, starttls, implicit }

    /// Starts a server; `failFirst` messages are refused with 451 first. Throws if the Python
    /// environment is missing (run `./scripts/test`) or the server does not start in 20 s.
    package init(tls: TLS = .none, auth: (user: String, password: String)? = nil, loginOnly: Bool = false, failFirst: Int = 0, port: Int? = nil)
        throws
    {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestEnvironmentError("no Python test environment at \(Self.python): run ./scripts/test, which creates it")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        maildir = directory.appendingPathComponent("mail")
        self.port = try port ?? Loopback.freePort()
        var arguments = [Self.root.appendingPathComponent("Tests/Support/smtp_server.py").path, String(self.port), maildir.path]
        if tls != .none {
            try Self.run(Self.python, [Self.root.appendingPathComponent("Tests/Support/make_certs.py").path, directory.path])
            arguments += [tls == .starttls ? "--starttls" : "--tls", directory.path + "/server.pem", directory.path + "/server.key"]
            caFile = directory.path + "/ca.pem"
        } else {
            caFile = nil
        }
        if let auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        if loginOnly { arguments.append("--login-only") }
        if failFirst > 0 { arguments += ["--fail-first", String(failFirst)] }
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let errors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // "ready" on stdout, bounded by a 20 s watchdog that ends the child if it hangs.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
        watchdog.cancel()
        guard line.hasPrefix("ready") else {
            let reason = (try? String(contentsOf: errors, encoding: .utf8))?.split(separator: "\n").suffix(3).joined(separator: " | ") ?? ""
            stop()
            throw TestEnvironmentError("the SMTP test server did not start: \(reason)")
        }
    }

    deinit { stop() }

    /// Stops the server (SIGTERM to its PID, SIGKILL after 5 s) and removes its files.
    package func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<100 where process.isRunning { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The messages received so far, in order (raw RFC 5322 text with two `X-Envelope-*` headers
    /// in front).
    package func messages() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
        return names.compactMap { try? String(contentsOf: maildir.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Waits (bounded) until `count` messages arrived, and returns them.
    package func waitForMessages(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let received = messages()
            if received.count >= count { return received }
            try await Task.sleep(for: .milliseconds(50))
        }
        return messages()
    }

    /// Runs `executable` with `arguments` to its end; throws when it fails.
    package static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestEnvironmentError("\(arguments.first ?? executable) failed") }
    }
}

/// The test environment is incomplete (a tool or a Python package is missing).
package struct TestEnvironmentError: Error, CustomStringConvertible {
    /// What is missing and how to get it.
    package let description: String
    package init(_ description: String) { self.description = description }
}
