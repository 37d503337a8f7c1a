import Foundation
import RooftopCore
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension ServerProcessTests {
    /// The permission bits of `path`.
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0o777
    }

    /// Every file of the data directory — the database, its write-ahead log and shared memory,
    /// the keys, and what an older version left readable — is private (0600, the directory
    /// 0700); a generated master key stays out of output that is not a terminal.
    @Test func dataIsPrivateAndTheMasterKeyStaysOutOfLogs() async throws {
        let dir = try temporaryDirectory("private")
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o755)
        let old = dir.appendingPathComponent("old-backup.db").path
        _ = FileManager.default.createFile(atPath: old, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644])
        let (process, port) = try await launch(in: dir, keys: false)
        defer { if process.isRunning { process.terminate() } }

        let keys = try JSONParser.parse(Array(try Data(contentsOf: dir.appendingPathComponent("keys.json"))))
        let appId = try #require(keys["appId"]?.stringValue)
        let masterKey = try #require(keys["masterKey"]?.stringValue)
        let body = #"{"title":"private"}"#
        let connection = try Connection(port: port)
        connection.send(
            "POST /parse/classes/Note HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(appId)\r\nX-Parse-Master-Key: \(masterKey)\r\n"
                + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(connection.receiveAll().contains("201 Created"))

        #expect(mode(dir.path) == 0o700)
        for name in ["data.db", "data.db-wal", "data.db-shm", "keys.json", "old-backup.db"] {
            let path = dir.appendingPathComponent(name).path
            #expect(FileManager.default.fileExists(atPath: path), "\(name)")
            #expect(mode(path) & 0o077 == 0, "\(name) is \(String(mode(path), radix: 8))")
        }
        try await stop(process)
        let output = try String(contentsOf: dir.appendingPathComponent("out.log"), encoding: .utf8)
        #expect(!output.contains(masterKey))
        #expect(output.contains("keys.json"))
        #expect(output.contains(appId))
    }
}
