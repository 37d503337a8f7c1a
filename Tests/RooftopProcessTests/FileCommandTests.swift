import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// `rooftop files unreferenced`: a dry run first, then `--delete`; files referenced anywhere in
/// an object (nested in arrays and objects too) and fresh uploads are kept.
extension ServerProcessTests {
    @Test func unreferencedFilesAreListedThenDeleted() async throws {
        let dir = try temporaryDirectory("orphans")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, port) = try await launch(in: dir)
        let (_, ana) = try exchange(port, "POST", "/users", body: #"{"username":"ana","password":"correct horse battery"}"#)
        let anaId = try #require(ana["objectId"]?.stringValue)
        let token = try #require(ana["sessionToken"]?.stringValue)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let (picture, _) = try upload(port, "avatar.png", png, type: "image/png", token: token)
        let (attached, _) = try upload(port, "notes.txt", Array("notes".utf8), type: "text/plain", token: token)
        let (orphan, _) = try upload(port, "draft.txt", Array("draft".utf8), type: "text/plain", token: token)
        #expect(try exchange(port, "PUT", "/users/\(anaId)", body: #"{"picture":{"__type":"File","name":"\#(picture)"}}"#, token: token).0 == 200)
        let note = #"{"attachments":[{"label":"n","file":{"__type":"File","name":"\#(attached)"}}]}"#
        #expect(try exchange(port, "POST", "/classes/Note", body: note, token: token).0 == 201)
        try await stop(server)

        var (status, output) = try rooftop(["files", "unreferenced", "--data-dir", dir.path])
        #expect(status == 0 && output.contains("0 unreferenced file(s)"), "\(output)")
        (status, output) = try rooftop(["files", "unreferenced", "--data-dir", dir.path, "--min-age-hours", "0"])
        #expect(status == 0 && output.contains(orphan) && output.contains("1 unreferenced file(s), 5 bytes; run again with --delete"), "\(output)")
        #expect(!output.contains(picture) && !output.contains(attached))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/files/" + orphan))
        (status, output) = try rooftop(["files", "unreferenced", "--data-dir", dir.path, "--min-age-hours", "0", "--delete"])
        #expect(status == 0 && output.contains("deleted 1 unreferenced file(s)"), "\(output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/files").filter { !$0.hasPrefix(".") }.sorted()
        #expect(left == [picture, attached].sorted())
        (status, output) = try rooftop(["files", "unreferenced", "--data-dir", dir.path, "--min-age-hours", "0"])
        #expect(output.contains("0 unreferenced file(s)"), "\(output)")
    }
}
