import Foundation
import RooftopCore
import RooftopMail
import RooftopSQLite
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `rooftop` executable: start, serve, and shut down gracefully on SIGTERM.
@Suite struct ServerProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A blocking loopback TCP connection (`RooftopTesting`).
    typealias Connection = LoopbackConnection

    func request(_ method: String, _ path: String, body: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: proc-app\r\nX-Parse-Master-Key: proc-master\r\n"
            + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
    }

    /// Starts `rooftop serve` on a free port with its output in `<dir>/out.log`; returns once
    /// `/health` answers (bounded: 30 s).
    /// With `keys: false` the server generates its own keys.
    func launch(in dir: URL, environment: [String: String] = [:], keys: Bool = true) async throws -> (Process, port: Int) {
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first (swift build)")
        let port = try Loopback.freePort()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", String(port), "--data-dir", dir.path]
        process.environment = (keys ? ["ROOFTOP_APP_ID": "proc-app", "ROOFTOP_MASTER_KEY": "proc-master"] : [:]).merging(environment) { $1 }
        let log = dir.appendingPathComponent("out.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var ready = false
        for _ in 0..<300 where !ready && process.isRunning {
            if let connection = try? Connection(port: port) {
                connection.send(request("GET", "/parse/health"))
                ready = connection.receiveAll().contains("200 OK")
            }
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        if !ready { process.terminate() }
        try #require(ready)
        return (process, port)
    }

    /// Stops `process` with SIGTERM and waits (bounded: 10 s) for it to exit.
    func stop(_ process: Process) async throws {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
    }

    /// Runs `binary` to completion; its exit status and output (stdout and stderr together).
    func runCommand(_ binary: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func temporaryDirectory(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A line per request only at Parse's `verbose` level, as Parse Server.
    @Test func requestLinesOnlyAtVerbose() async throws {
        for (level, logged) in [("info", false), ("verbose", true)] {
            let dir = try temporaryDirectory("log")
            defer { try? FileManager.default.removeItem(at: dir) }
            let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_LOG_LEVEL": level])
            defer { if process.isRunning { process.terminate() } }
            let connection = try Connection(port: port)
            connection.send(request("GET", "/parse/classes/Note?where=%7B%7D"))
            #expect(connection.receiveAll().contains("200 OK"))
            try await stop(process)
            let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
            #expect(output.contains("GET /parse/classes/Note 200") == logged, "\(level): \(output)")
            #expect(!output.contains("where="), "query strings can carry credentials: never logged")
        }
    }

    @Test func sigtermLetsInFlightRequestsFinishAndExitsZero() async throws {
        let dir = try temporaryDirectory("proc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir)
        defer { if process.isRunning { process.terminate() } }

        // Half a request is in flight when SIGTERM arrives; it still completes.
        let body = #"{"title":"written during shutdown"}"#
        let connection = try Connection(port: port)
        connection.send(request("POST", "/parse/classes/Note", body: body) + String(body.prefix(10)))
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        connection.send(String(body.dropFirst(10)))
        let reply = connection.receiveAll()
        #expect(reply.hasPrefix("HTTP/1.1 201"), "\(reply)")

        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        #expect(process.terminationReason == .exit)

        // Closed cleanly: the WAL was checkpointed away, and the object is there.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("data.db-wal").path))
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        let note = try ClassName("Note")
        let count = try await store.count(FindRequest(className: note, query: .always, scope: AccessScope(classes: [note: .master])))
        #expect(count == 1)
        try store.close()
    }

    /// A client that never finishes its request holds the stop only for
    /// `gracefulShutdownTimeout`: then its connection is closed, the database too, exit 0.
    @Test func stalledRequestsHoldTheStopOnlyUntilTheTimeout() async throws {
        let dir = try temporaryDirectory("stall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir, environment: ["ROOFTOP_GRACEFUL_SHUTDOWN_TIMEOUT": "2"])
        defer { if process.isRunning { process.terminate() } }

        let body = #"{"title":"never finished"}"#
        let stalled = try Connection(port: port)
        stalled.send(request("POST", "/parse/classes/Note", body: body) + String(body.prefix(5)))
        try await Task.sleep(for: .milliseconds(200))
        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let took = ContinuousClock.now - signalled
        #expect(!process.isRunning, "still running 10 s after SIGTERM with a stalled request")
        #expect(took >= .seconds(2), "the stalled request got its grace period")
        #expect(process.terminationStatus == 0)
        // The connection was closed without an answer; the database was closed cleanly.
        #expect(!stalled.receiveAll().contains("201"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("data.db-wal").path))
        let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
        #expect(output.contains("stopped; database closed"), "\(output)")
    }

    /// `rooftop config print`: file < environment < flags, Parse names, secrets redacted.
    @Test func configPrintLayersAndRedacts() throws {
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path))
        let dir = try temporaryDirectory("cfg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = #"{"appId":"from-file","masterKey":"s3cret","port":2000,"sessionLength":60,"defaultACL":{"Todo":"owner"}}"#
        try file.write(to: dir.appendingPathComponent("rooftop.json"), atomically: true, encoding: .utf8)
        func run(_ arguments: [String], _ environment: [String: String]) throws -> (Int32, String) {
            try runCommand(binary, arguments, environment: environment)
        }
        let env = [
            "PARSE_SERVER_SESSION_LENGTH": "120", "PARSE_SERVER_VERBOSE": "true", "ROOFTOP_PASSWORD_POLICY": #"{"minLength":12}"#,
            "PARSE_SERVER_PORT": "3000", "ROOFTOP_ACCOUNT_LOCKOUT": #"{"threshold":5,"duration":15}"#,
            "ROOFTOP_RATE_LIMIT": #"[{"requestPath":"/classes/*","requestTimeWindow":1000,"requestCount":5,"requestMethods":"post"}]"#,
        ]
        let (status, output) = try run(["config", "print", "--data-dir", dir.path, "--port", "4000"], env)
        #expect(status == 0)
        let config = try JSONParser.parse(output)
        #expect(config["appId"] == "from-file")
        #expect(config["masterKey"] == "<redacted>")
        #expect(config["sessionLength"] == 120)
        #expect(config["port"] == 4000)
        #expect(config["passwordPolicy"]?["minLength"] == 12)
        #expect(config["defaultACL"]?["Todo"] == "owner")
        #expect(config["logLevel"] == "verbose")
        #expect(config["rateLimit"]?.arrayValue?.first?["requestPath"] == "/classes/*")
        #expect(config["rateLimit"]?.arrayValue?.first?["requestMethods"] == ["POST"])
        #expect(config["defaultRateLimits"] == true)
        #expect(config["accountLockout"] == ["threshold": 5, "duration": 15, "unlockOnPasswordReset": false])
        #expect(!output.contains("s3cret"))
        let (badStatus, badOutput) = try run(["config", "print", "--data-dir", dir.path], ["ROOFTOP_PASSWORD_POLICY": #"{"validatorCallback":"x"}"#])
        #expect(badStatus != 0)
        #expect(badOutput.contains("passwordPolicy.validatorCallback"))
        let (limitStatus, limitOutput) = try run(
            ["config", "print", "--data-dir", dir.path],
            ["ROOFTOP_RATE_LIMIT": #"[{"requestPath":"/login","requestTimeWindow":1,"requestCount":1,"redisUrl":"x"}]"#])
        #expect(limitStatus != 0)
        #expect(limitOutput.contains("unknown key redisUrl"))
        let (levelStatus, levelOutput) = try run(["config", "print", "--data-dir", dir.path], ["ROOFTOP_LOG_LEVEL": "loud"])
        #expect(levelStatus != 0)
        #expect(levelOutput.contains("logLevel must be one of"))
    }

    /// `rooftop outbox list|show` reads what the file outbox wrote, bodies decoded.
    @Test func outboxCommands() async throws {
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let dir = try temporaryDirectory("outbox")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outbox = FileOutbox(directory: dir.path + "/outbox")
        let (emptyStatus, empty) = try runCommand(binary, ["outbox", "show", "latest", "--data-dir", dir.path])
        #expect(emptyStatus == 66)
        #expect(empty == "rooftop: the outbox \(dir.path)/outbox is empty: the server has written no mail to it yet\n", "\(empty)")
        try await outbox.deliver(MailMessage(from: "a@example.com", to: "ana@example.com", subject: "First", text: "one"))
        try await Task.sleep(for: .milliseconds(5))
        try await outbox.deliver(MailMessage(from: "a@example.com", to: "bob@example.com", subject: "確認してください", text: "リンク: https://x/y"))
        func run(_ arguments: [String]) throws -> (Int32, String) { try runCommand(binary, arguments + ["--data-dir", dir.path]) }
        let (listStatus, list) = try run(["outbox", "list"])
        #expect(listStatus == 0)
        let lines = list.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("ana@example.com  First") == true)
        #expect(lines.last?.contains("確認してください") == true)
        let (showStatus, shown) = try run(["outbox", "show", "latest"])
        #expect(showStatus == 0)
        #expect(shown.contains("リンク: https://x/y"))
        let (missingStatus, _) = try run(["outbox", "show", "no-such-message"])
        #expect(missingStatus != 0)
    }

    /// `rooftop serve` limits logins by default: the 11th in a minute naming one account is 429.
    @Test func defaultLoginLimit() async throws {
        let dir = try temporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, port) = try await launch(in: dir)
        defer { if process.isRunning { process.terminate() } }
        var statuses: [String] = []
        let body = #"{"username":"ana","password":"wrong phrase"}"#
        // No master key: the master key is not limited.
        let login =
            "POST /parse/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: proc-app\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        for _ in 0..<11 {
            let connection = try Connection(port: port)
            connection.send(login)
            statuses.append(String(connection.receiveAll().prefix(12)))
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == "HTTP/1.1 404" }, "\(statuses)")
        #expect(statuses.last == "HTTP/1.1 429")
        try await stop(process)
        // `rooftop audit` reads the events the refused logins left.
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let (status, output) = try runCommand(binary, ["audit", "--data-dir", dir.path, "--type", "login.failed", "--limit", "3"])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(
            lines.count == 3 && lines.allSatisfy { $0.contains("login.failed") && $0.contains("ip=127.0.0.1") && $0.contains("reason=unknown user") })
        #expect(try runCommand(binary, ["audit", "--data-dir", dir.path, "--type", "bogus"]).0 != 0)
    }

    /// `mail.templatesDir` reaches the hosted pages of the real binary: a language only the pages
    /// have is chosen; a broken file stops `serve` with a message naming it.
    @Test func operatorPageTemplates() async throws {
        let dir = try temporaryDirectory("pages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let templates = dir.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates.appendingPathComponent("fr"), withIntermediateDirectories: true)
        try #"{"notFound": {"title": "Page introuvable", "message": "Rien ici."}}"#.write(
            to: templates.appendingPathComponent("fr/pages.json"), atomically: true, encoding: .utf8)
        let environment = ["ROOFTOP_MAIL": #"{"templatesDir":"\#(templates.path)"}"#]
        let (process, port) = try await launch(in: dir, environment: environment)
        defer { if process.isRunning { process.terminate() } }
        let connection = try Connection(port: port)
        connection.send("GET /parse/apps/proc-app/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: fr\r\nConnection: close\r\n\r\n")
        let answer = connection.receiveAll()
        #expect(answer.hasPrefix("HTTP/1.1 404") && answer.contains("<h1>Page introuvable</h1>"), "\(answer)")
        try await stop(process)

        try #"{"notFound": {"titre": "Page introuvable"}}"#.write(
            to: templates.appendingPathComponent("fr/pages.json"), atomically: true, encoding: .utf8)
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let (status, output) = try runCommand(
            binary, ["serve", "--port", String(try Loopback.freePort()), "--data-dir", dir.path],
            environment: environment.merging(["ROOFTOP_APP_ID": "proc-app", "ROOFTOP_MASTER_KEY": "proc-master"]) { $1 })
        #expect(status != 0)
        #expect(output.contains("fr/pages.json: unknown keys [\"titre\"]"), "\(output)")
    }
}
