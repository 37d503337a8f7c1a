import Foundation
import RooftopCore
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Moving up: `rooftop export` from SQLite, `rooftop import` into PostgreSQL (and back), with
/// byte-identical exports and working logins; `rooftop backup` while the server runs.
extension ServerProcessTests {
    func rooftop(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (Int32, String) {
        try runCommand(Self.root.appendingPathComponent(".build/debug/rooftop"), arguments, environment: environment)
    }

    /// `POST /files/<name>` with raw bytes as `token`'s user: the stored name and URL path.
    func upload(_ port: Int, _ name: String, _ bytes: [UInt8], type: String, token: String) throws -> (String, String) {
        let connection = try Connection(port: port)
        connection.send(
            "POST /parse/files/\(name) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: proc-app\r\nX-Parse-Session-Token: \(token)\r\n"
                + "Content-Type: \(type)\r\nConnection: close\r\nContent-Length: \(bytes.count)\r\n\r\n")
        _ = bytes.withUnsafeBytes { Glibc.send(connection.fd, $0.baseAddress, bytes.count, 0) }
        let reply = connection.receiveAll()
        let json = reply.range(of: "\r\n\r\n").flatMap { try? JSONParser.parse(String(reply[$0.upperBound...])) } ?? .null
        let url = try #require(json["url"]?.stringValue, "\(reply)")
        return (try #require(json["name"]?.stringValue), try #require(URLComponents(string: url)?.path))
    }

    /// `GET` of a path outside the API's JSON: the status and the body's bytes.
    func download(_ port: Int, _ path: String) throws -> (Int, [UInt8]) {
        let connection = try Connection(port: port)
        connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(connection.fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        let end = data.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? data.count
        let status = Int(String(decoding: data.prefix(12), as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, Array(data[end...]))
    }

    @Test func exportImportRoundTripsAndBackup() async throws {
        let work = try temporaryDirectory("transfer")
        defer { try? FileManager.default.removeItem(at: work) }
        let sqliteDir = work.appendingPathComponent("sqlite")
        try FileManager.default.createDirectory(at: sqliteDir, withIntermediateDirectories: true)

        // Data worth moving, made through the API on SQLite.
        let (server, port) = try await launch(in: sqliteDir)
        let (_, ana) = try exchange(port, "POST", "/users", body: #"{"username":"ana","password":"correct horse battery","email":"ana@example.com"}"#)
        let anaId = try #require(ana["objectId"]?.stringValue)
        let token = try #require(ana["sessionToken"]?.stringValue)
        let note = #"""
            {"text":"héllo","n":2.5,"when":{"__type":"Date","iso":"2026-01-02T03:04:05.678Z"},"raw":{"__type":"Bytes","base64":"AAEC"},
             "at":{"__type":"GeoPoint","latitude":35.6,"longitude":139.7},"tags":["a",1,true,null],"nested":{"deep":{"x":1}},
             "owner":{"__type":"Pointer","className":"_User","objectId":"\#(anaId)"},"ACL":{"\#(anaId)":{"read":true,"write":true}}}
            """#
        #expect(try exchange(port, "POST", "/classes/Note", body: note, token: token).0 == 201)
        // A profile picture larger than one export chunk, referenced from the user.
        let picture: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<500_000).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        let (pictureName, picturePath) = try upload(port, "avatar.png", picture, type: "image/png", token: token)
        let reference = #"{"picture":{"__type":"File","name":"\#(pictureName)","url":"http://127.0.0.1/parse\#(picturePath)"}}"#
        #expect(try exchange(port, "PUT", "/users/\(anaId)", body: reference, token: token).0 == 200)
        let role =
            #"{"name":"staff","ACL":{"*":{"read":true}},"users":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(anaId)"}]}}"#
        #expect(try exchange(port, "POST", "/roles", body: role, master: true).0 == 201)
        // A consistent copy while the server runs.
        let copy = work.appendingPathComponent("copy.db").path
        let (backupStatus, backupOutput) = try rooftop(["backup", "--data-dir", sqliteDir.path, "--output", copy])
        #expect(backupStatus == 0, "\(backupOutput)")
        try await stop(server)
        let copied = try SQLiteStore(path: copy)
        let users = try await copied.find(FindRequest(className: .user, query: .always, scope: AccessScope(classes: [.user: .master])))
        #expect(users.map(\.objectId) == [anaId])
        try copied.close()
        #expect(FileManager.default.contentsEqual(atPath: copy + ".files/" + pictureName, andPath: sqliteDir.path + "/files/" + pictureName))

        // SQLite → PostgreSQL → SQLite, each export the same bytes.
        let first = work.appendingPathComponent("first.jsonl").path
        var (status, output) = try rooftop(["export", "--data-dir", sqliteDir.path, "--output", first])
        #expect(status == 0, "\(output)")
        let url = try await TestStores.freshPostgresDatabase()
        let pgDir = work.appendingPathComponent("pg")
        (status, output) = try rooftop(["import", "--data-dir", pgDir.path, "--database-url", url, "--input", first])
        #expect(status == 0, "\(output)")
        let second = work.appendingPathComponent("second.jsonl").path
        (status, output) = try rooftop(["export", "--data-dir", pgDir.path, "--database-url", url, "--output", second])
        #expect(status == 0, "\(output)")
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
        let secondBytes = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(firstBytes.count > 500_000 && firstBytes == secondBytes)
        #expect(String(decoding: firstBytes, as: UTF8.self).contains(#"{"file":{"chunks":3,"contentType":"image/png""#))
        #expect(String(decoding: firstBytes, as: UTF8.self).contains(#""relations":{"roles":[],"users":["\#(anaId)"]}"#))
        let backDir = work.appendingPathComponent("back")
        (status, output) = try rooftop(["import", "--data-dir", backDir.path, "--input", second])
        #expect(status == 0, "\(output)")
        let third = work.appendingPathComponent("third.jsonl").path
        (status, output) = try rooftop(["export", "--data-dir", backDir.path, "--output", third])
        let thirdBytes = try Data(contentsOf: URL(fileURLWithPath: third))
        #expect(status == 0 && firstBytes == thirdBytes, "\(output)")
        // Only into an empty database.
        (status, output) = try rooftop(["import", "--data-dir", pgDir.path, "--database-url", url, "--input", first])
        #expect(status != 0 && output.contains("not empty"), "\(output)")

        // `rooftop explain`: the owner query, as ana runs it, uses the pointer index on both.
        let owner = #"{"owner":{"__type":"Pointer","className":"_User","objectId":"\#(anaId)"}}"#
        for target in [["--data-dir", backDir.path], ["--data-dir", pgDir.path, "--database-url", url]] {
            (status, output) = try rooftop(["explain"] + target + ["--class", "Note", "--where", owner, "--user", anaId])
            #expect(status == 0 && output.contains("Note_owner_ptr"), "\(output)")
        }
        (status, output) = try rooftop(["explain", "--data-dir", backDir.path, "--class", "Bad-Name"])
        #expect(status != 0 && output.contains("Bad-Name"), "\(output)")

        // On PostgreSQL, the password and the session still work, and the data reads the same.
        let (moved, movedPort) = try await launch(in: pgDir, environment: ["ROOFTOP_DATABASE_URI": url])
        #expect(try exchange(movedPort, "GET", "/users/me", token: token).1["username"] == "ana")
        #expect(try exchange(movedPort, "POST", "/login", body: #"{"username":"ana","password":"correct horse battery"}"#).0 == 200)
        // The picture moved with the database (PostgreSQL keeps it in its own tables), and goes away.
        #expect(try exchange(movedPort, "GET", "/users/me", token: token).1["picture"]?["name"]?.stringValue == pictureName)
        let (served, bytes) = try download(movedPort, picturePath)
        #expect(served == 200 && bytes == picture)
        #expect(try exchange(movedPort, "DELETE", "/files/\(pictureName)", master: true).0 == 200)
        #expect(try download(movedPort, picturePath).0 == 404)
        let notes = try exchange(movedPort, "GET", "/classes/Note", token: token).1["results"]?.arrayValue
        #expect(notes?.first?["when"]?["iso"] == "2026-01-02T03:04:05.678Z" && notes?.first?["raw"]?["base64"] == "AAEC")
        try await stop(moved)
    }
}
