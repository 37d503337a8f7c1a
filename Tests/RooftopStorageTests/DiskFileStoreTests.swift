import Foundation
import RooftopCore
import RooftopStorage
import RooftopTesting
import Testing

/// The directory file store: the shared conformance suite, and what only a directory can get
/// wrong (modes, leftovers, paths).
@Suite struct DiskFileStoreTests {
    func withDirectory(_ body: (String) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await body(dir)
    }

    @Test func conformance() async throws {
        try await withDirectory { dir in try await FileStoreConformance.runAll(try DiskFileStore(directory: dir + "/files")) }
    }

    /// Stored files and their metadata are the server account's alone; the directories too.
    @Test func filesArePrivate() async throws {
        try await withDirectory { dir in
            let store = try DiskFileStore(directory: dir + "/files")
            let info = try await store.write(
                "a_b.png", contentType: "image/png", createdAt: ParseDate(millisecondsSince1970: 0), maxSize: 10, from: ByteChunks([[1, 2]]))
            for path in [dir + "/files/" + info.name, dir + "/files/.meta/" + info.name] {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
                #expect(mode & 0o077 == 0, "\(path) is \(String(mode, radix: 8))")
            }
            for path in [dir + "/files", dir + "/files/.meta", dir + "/files/.tmp"] {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
                #expect(mode == 0o700)
            }
        }
    }

    /// Failed uploads leave no temporary file; neither does a success.
    @Test func noTemporaryFilesAreLeft() async throws {
        try await withDirectory { dir in
            let store = try DiskFileStore(directory: dir + "/files")
            let at = ParseDate(millisecondsSince1970: 0)
            _ = try await store.write("ok.txt", contentType: "text/plain", createdAt: at, maxSize: 10, from: ByteChunks([[1]]))
            _ = try? await store.write("big.txt", contentType: "text/plain", createdAt: at, maxSize: 1, from: ByteChunks([[1], [2]]))
            var calls = 0
            let broken = ByteChunks {
                calls += 1
                if calls > 1 { throw CancellationError() }
                return [1, 2, 3]
            }
            _ = try? await store.write("half.txt", contentType: "text/plain", createdAt: at, maxSize: 10, from: broken)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/files/.tmp") == [])
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/files").sorted() == [".meta", ".tmp", "ok.txt"])
        }
    }

    /// A leftover from a crash mid-upload is cleared when the store opens again.
    @Test func leftoversOfACrashAreRemovedOnOpen() async throws {
        try await withDirectory { dir in
            _ = try DiskFileStore(directory: dir + "/files")
            _ = FileManager.default.createFile(atPath: dir + "/files/.tmp/upload-in-progress", contents: Data([1, 2, 3]))
            _ = try DiskFileStore(directory: dir + "/files")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/files/.tmp") == [])
        }
    }

    /// A symbolic link planted in the directory is not followed out of it.
    @Test func symbolicLinksAreNotFollowed() async throws {
        try await withDirectory { dir in
            let store = try DiskFileStore(directory: dir + "/files")
            _ = FileManager.default.createFile(atPath: dir + "/secret.txt", contents: Data("secret".utf8))
            try FileManager.default.createSymbolicLink(atPath: dir + "/files/link.txt", withDestinationPath: dir + "/secret.txt")
            #expect(try await store.info("link.txt") == nil)
            #expect(try await FileStoreConformance.contents(store, "link.txt") == nil)
        }
    }
}
