import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// The real `rooftop` executable on PostgreSQL: two processes on one database act as one
/// server, and a database that can't be reached stops the start with its reason.
extension ServerProcessTests {
    /// One request over a fresh connection: the status and the JSON body.
    func exchange(_ port: Int, _ method: String, _ path: String, body: String = "", token: String? = nil, master: Bool = false) throws -> (Int, JSON)
    {
        let connection = try Connection(port: port)
        var head = "\(method) /parse\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: proc-app\r\n"
        if let token { head += "X-Parse-Session-Token: \(token)\r\n" }
        if master { head += "X-Parse-Master-Key: proc-master\r\n" }
        connection.send(head + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        let reply = connection.receiveAll()
        let status = Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
        let json = reply.range(of: "\r\n\r\n").flatMap { try? JSONParser.parse(String(reply[$0.upperBound...])) } ?? .null
        return (status, json)
    }

    @Test func twoProcessesShareOnePostgres() async throws {
        let url = try await TestStores.freshPostgresDatabase()
        let dirA = try temporaryDirectory("node-a")
        let dirB = try temporaryDirectory("node-b")
        defer {
            try? FileManager.default.removeItem(at: dirA)
            try? FileManager.default.removeItem(at: dirB)
        }
        // Parse Server's variable on one node, Rooftop's on the other.
        let (a, portA) = try await launch(in: dirA, environment: ["PARSE_SERVER_DATABASE_URI": url])
        let (b, portB) = try await launch(in: dirB, environment: ["ROOFTOP_DATABASE_URI": url])
        let (status, user) = try exchange(portA, "POST", "/users", body: #"{"username":"ana","password":"correct horse battery"}"#)
        #expect(status == 201)
        let token = try #require(user["sessionToken"]?.stringValue)
        #expect(try exchange(portB, "GET", "/users/me", token: token).1["username"] == "ana")  // node B caches the session
        #expect(try exchange(portA, "POST", "/logout", token: token).0 == 200)
        var refused = false
        for _ in 0..<100 where !refused {
            refused = try exchange(portB, "GET", "/users/me", token: token).1["code"] == 209
            if !refused { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(refused, "node B still accepts a session node A logged out")
        try await stop(a)
        try await stop(b)
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0)
        let log = try String(contentsOf: dirA.appendingPathComponent("out.log"), encoding: .utf8)
        #expect(log.contains("database: PostgreSQL"), "\(log)")
    }

    @Test func unreachablePostgresStopsTheStart() throws {
        let binary = Self.root.appendingPathComponent(".build/debug/rooftop")
        let dir = try temporaryDirectory("no-db")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = try Loopback.freePort()  // nothing listens there
        let (status, output) = try runCommand(
            binary, ["serve", "--data-dir", dir.path, "--database-url", "postgres://postgres:hunter2@127.0.0.1:\(port)/x?sslmode=disable"])
        #expect(status != 0)
        #expect(output.contains("cannot use the PostgreSQL database"), "\(output)")
        #expect(!output.contains("hunter2"), "\(output)")
        let (badStatus, badOutput) = try runCommand(binary, ["serve", "--data-dir", dir.path, "--database-url", "mysql://x"])
        #expect(badStatus != 0 && badOutput.contains("databaseURI must be a postgres:// URL"), "\(badOutput)")
    }
}
