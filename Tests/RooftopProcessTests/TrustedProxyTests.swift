import Foundation
import Hummingbird
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Behind a real reverse proxy (HAProxy on loopback, `option forwardfor`): the master-key
/// address check, the rate limits and the audit log all see the client the proxy names.
/// Clients are told apart by their source address (127.0.0.0/8 is all local on Linux).
@Suite(.serialized) struct TrustedProxyTests: LiveServerTest {
    /// A request with the test keys, and the master key when `master`.
    func request(_ method: String, _ path: String, master: Bool, body: String = "", extra: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
            + (master ? "X-Parse-Master-Key: \(testMasterKey)\r\n" : "") + extra
            + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// The reply to `text` sent to `port` from `source`.
    func send(_ text: String, port: Int, from source: String) async throws -> String {
        try await blocking {
            let socket = try RawSocket(port: port, from: source)
            socket.send(text)
            return socket.receiveUntilClosed().text
        }
    }

    func status(_ text: String, port: Int, from source: String) async throws -> Int {
        RawSocket.status(try await send(text, port: port, from: source))
    }

    /// The default `masterKeyIps` (loopback) behind a local proxy: the proxy's own address must
    /// not lend the master key to the clients it forwards.
    @Test func masterKeyFromAForwardedClientIsJudgedByThatClient() async throws {
        try await withServer(configure: { _, http in
            http.trustedProxies = ["127.0.0.1"]
            http.masterKeyIps = ["127.0.0.1", "::1", "127.0.0.64/26"]
        }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            try await HAProxy.run(forwardingTo: port) { (proxy: Int) async throws in
                let schemas = request("GET", "/parse/schemas", master: true)
                #expect(try await status(schemas, port: proxy, from: "127.0.0.2") == 403)
                // In the CIDR block.
                #expect(try await status(schemas, port: proxy, from: "127.0.0.70") == 200)
                // A client's own X-Forwarded-For is forwarded too; the proxy's hop is the one believed.
                let forged = request("GET", "/parse/schemas", master: true, extra: "X-Forwarded-For: 127.0.0.70\r\n")
                #expect(try await status(forged, port: proxy, from: "127.0.0.2") == 403)
                let forgedList = request("GET", "/parse/schemas", master: true, extra: "X-Forwarded-For: 127.0.0.1, ::1, 127.0.0.1\r\n")
                #expect(try await status(forgedList, port: proxy, from: "127.0.0.3") == 403)
                // Body alias of the master key, the same route by another door.
                let alias = request(
                    "POST", "/parse/schemas", master: false,
                    body: #"{"_method":"GET","_ApplicationId":"\#(testAppId)","_MasterKey":"\#(testMasterKey)"}"#)
                #expect(try await status(alias, port: proxy, from: "127.0.0.2") == 403)
            }
            // Straight to the server: the proxy's own address without a forwarded hop is itself.
            #expect(try await status(request("GET", "/parse/schemas", master: true), port: port, from: "127.0.0.1") == 200)
            // From an untrusted peer the header is not believed at all.
            let spoof = request("GET", "/parse/schemas", master: true, extra: "X-Forwarded-For: 127.0.0.70\r\n")
            #expect(try await status(spoof, port: port, from: "127.0.0.2") == 403)
            // A trusted proxy that names no address leaves the client unknown, not loopback.
            for hop in ["unknown", "127.0.0.1\u{0}", "not-an-ip", "127.0.0.70/26", "$gt"] {
                let named = request("GET", "/parse/schemas", master: true, extra: "X-Forwarded-For: \(hop)\r\n")
                #expect(try await status(named, port: port, from: "127.0.0.1") != 200, "\(hop)")
            }
        }
    }

    /// An allowed client behind the proxy gets the master key, though the proxy is not allowed.
    @Test func masterKeyFromAnAllowedForwardedClientIsAccepted() async throws {
        try await withServer(configure: { _, http in
            http.trustedProxies = ["127.0.0.0/30"]
            http.masterKeyIps = ["127.0.0.70"]
        }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            try await HAProxy.run(forwardingTo: port) { (proxy: Int) async throws in
                #expect(try await status(request("GET", "/parse/schemas", master: true), port: proxy, from: "127.0.0.70") == 200)
                #expect(try await status(request("GET", "/parse/schemas", master: true), port: proxy, from: "127.0.0.71") == 403)
            }
        }
    }

    /// Rate limits and the audit log count the forwarded client, the same address the
    /// master-key check uses.
    @Test func rateLimitsAndAuditSeeTheForwardedClient() async throws {
        try await withServer(configure: { _, http in
            http.trustedProxies = ["127.0.0.1"]
            http.masterKeyIps = ["127.0.0.70"]
            http.rateLimits = [.init(path: "/classes/*", count: 1, window: 60_000, zone: .ip)]
        }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            try await HAProxy.run(forwardingTo: port) { (proxy: Int) async throws in
                let read = request("GET", "/parse/classes/T", master: false)
                #expect(try await status(read, port: proxy, from: "127.0.0.5") == 200)
                #expect(try await status(read, port: proxy, from: "127.0.0.5") == 429)
                #expect(try await status(read, port: proxy, from: "127.0.0.6") == 200)
                let signup = request("POST", "/parse/users", master: false, body: #"{"username":"proxied","password":"a long pass phrase"}"#)
                #expect(try await status(signup, port: proxy, from: "127.0.0.9") == 201)
                let audit = try await send(request("GET", "/parse/classes/_Audit", master: true), port: proxy, from: "127.0.0.70")
                #expect(RawSocket.status(audit) == 200)
                #expect(audit.contains(#""ip":"127.0.0.9""#), "\(audit)")
            }
        }
    }
}

/// HAProxy (Debian's `haproxy`) on a free loopback port in front of `port`; stopped by PID.
enum HAProxy {
    static func run(forwardingTo port: Int, _ body: (Int) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-haproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let front = try Loopback.freePort()
        let config = """
            global
                maxconn 100
            defaults
                mode http
                option forwardfor
                timeout connect 5s
                timeout client 30s
                timeout server 30s
            frontend rooftop
                bind 127.0.0.1:\(front)
                default_backend node
            backend node
                server a 127.0.0.1:\(port)

            """
        let file = dir.appendingPathComponent("haproxy.cfg")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let binary = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(binary, "install haproxy (apt-get install -y haproxy; scripts/test does)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-db", "-f", file.path]
        let log = dir.appendingPathComponent("haproxy.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            // By PID: only the proxy this test started.
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        var ready = false
        for _ in 0..<100 where !ready && process.isRunning {
            ready = (try? RawSocket(port: front)) != nil
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(ready, "haproxy did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        try await body(front)
    }
}
