package import RooftopCore
package import RooftopStorage
import Testing

/// The file storage conformance suite, written once: every `FileStore` adapter (the directory,
/// PostgreSQL, object storage) must pass all of it.
package enum FileStoreConformance {
    /// Every check, in order, against `store` (which must start empty).
    package static func runAll(_ store: any FileStore) async throws {
        try await bytesRoundTripInChunks(store)
        try await rangesReadExactlyTheirBytes(store)
        try await oversizedUploadsStoreNothing(store)
        try await interruptedUploadsStoreNothing(store)
        try await namesOutsideTheAllowListAreRefused(store)
        try await storedNamesAreNeverOverwritten(store)
        try await deleteRemovesOnceAndListShowsWhatIsStored(store)
    }

    static let at = ParseDate(millisecondsSince1970: 1_700_000_000_000)

    /// `count` bytes of a repeating, position-dependent pattern.
    package static func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 8) ^ seed) }
    }

    /// `bytes` cut into chunks of `size`.
    package static func chunks(_ bytes: [UInt8], size: Int) -> ByteChunks {
        ByteChunks(stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) })
    }

    /// Everything `store` hands out for `name` in `range`, or `nil` when it has no such file.
    package static func contents(_ store: any FileStore, _ name: String, range: ClosedRange<Int64>? = nil) async throws -> [UInt8]? {
        var out: [UInt8] = []
        let found = try await store.read(name, range: range) { out.append(contentsOf: $0) }
        return found ? out : nil
    }

    /// What is written in odd-sized chunks is read back whole, with its size, type and time; a
    /// file larger than any one chunk either side streams in several.
    package static func bytesRoundTripInChunks(_ store: any FileStore) async throws {
        let bytes = pattern(700_001)
        let info = try await store.write(
            "0123456789abcdef0123456789abcdef_avatar.png", contentType: "image/png", createdAt: at, maxSize: 1 << 20,
            from: chunks(bytes, size: 65_537))
        #expect(info.size == 700_001)
        #expect(info.contentType == "image/png")
        #expect(info.etag.hasPrefix("\"") && info.etag.hasSuffix("\"") && info.etag.count > 2)
        let read = try #require(try await store.info(info.name))
        #expect(read == info)
        #expect(try await contents(store, info.name) == bytes)
        var pieces = 0
        _ = try await store.read(info.name, range: nil) { _ in pieces += 1 }
        #expect(pieces > 1)
        let tiny = try await store.write("tiny.txt", contentType: "text/plain", createdAt: at, maxSize: 10, from: ByteChunks([[65]]))
        #expect(try await contents(store, tiny.name) == [65])
        #expect(tiny.etag != info.etag)
    }

    /// A byte range reads exactly those bytes: the first, the last, one in the middle, all.
    package static func rangesReadExactlyTheirBytes(_ store: any FileStore) async throws {
        let bytes = pattern(300_000, seed: 7)
        let name = "ranges.bin"
        _ = try await store.write(name, contentType: "application/octet-stream", createdAt: at, maxSize: 1 << 20, from: chunks(bytes, size: 4096))
        #expect(try await contents(store, name, range: 0...0) == [bytes[0]])
        #expect(try await contents(store, name, range: 299_999...299_999) == [bytes[299_999]])
        #expect(try await contents(store, name, range: 100_000...200_000) == Array(bytes[100_000...200_000]))
        #expect(try await contents(store, name, range: 0...299_999) == bytes)
        #expect(try await contents(store, name, range: 262_140...262_150) == Array(bytes[262_140...262_150]))
    }

    /// One byte over the limit: refused with the limit, and no trace of the file.
    package static func oversizedUploadsStoreNothing(_ store: any FileStore) async throws {
        let before = try await store.list()
        await #expect(throws: FileStoreError.tooLarge(limit: 1000)) {
            _ = try await store.write("big.bin", contentType: "text/plain", createdAt: at, maxSize: 1000, from: chunks(pattern(1001), size: 100))
        }
        #expect(try await store.info("big.bin") == nil)
        #expect(try await contents(store, "big.bin") == nil)
        #expect(try await store.list().sorted() == before.sorted())
        let exact = try await store.write(
            "exact.bin", contentType: "text/plain", createdAt: at, maxSize: 1000, from: chunks(pattern(1000), size: 100))
        #expect(exact.size == 1000)
    }

    struct BodyStopped: Error {}

    /// A body that breaks off halfway (the client went away) leaves nothing stored.
    package static func interruptedUploadsStoreNothing(_ store: any FileStore) async throws {
        var sent = 0
        let broken = ByteChunks {
            sent += 1
            if sent > 3 { throw BodyStopped() }
            return pattern(50_000)
        }
        await #expect(throws: BodyStopped.self) {
            _ = try await store.write("half.bin", contentType: "text/plain", createdAt: at, maxSize: 1 << 20, from: broken)
        }
        #expect(try await store.info("half.bin") == nil)
        #expect(try await !store.list().contains("half.bin"))
    }

    /// Names that could mean a path, or anything but one file, are never written nor found.
    package static func namesOutsideTheAllowListAreRefused(_ store: any FileStore) async throws {
        let hostile = [
            "../escape.txt", "a/b.txt", "/etc/passwd", "..", ".", ".hidden", "", "nul\u{0}.txt", "back\\slash.txt",
            String(repeating: "a", count: StoredFileName.maxLength + 1), "new\nline.txt", "é.txt", "%2e%2e",
        ]
        for name in hostile {
            await #expect(throws: FileStoreError.invalidName) {
                _ = try await store.write(name, contentType: "text/plain", createdAt: at, maxSize: 100, from: ByteChunks([[1]]))
            }
            #expect(try await store.info(name) == nil)
            #expect(try await contents(store, name) == nil)
            #expect(try await store.delete(name) == false)
        }
        #expect(try await store.info("../" + (try await store.list().first ?? "x")) == nil)
    }

    /// A stored name is written once; a second write of it is refused and changes nothing.
    package static func storedNamesAreNeverOverwritten(_ store: any FileStore) async throws {
        _ = try await store.write("once.txt", contentType: "text/plain", createdAt: at, maxSize: 100, from: ByteChunks([[1, 2, 3]]))
        await #expect(throws: FileStoreError.exists) {
            _ = try await store.write("once.txt", contentType: "text/html", createdAt: at, maxSize: 100, from: ByteChunks([[9]]))
        }
        #expect(try await contents(store, "once.txt") == [1, 2, 3])
        #expect(try await store.info("once.txt")?.contentType == "text/plain")
    }

    /// Delete answers whether there was a file; the listing follows.
    package static func deleteRemovesOnceAndListShowsWhatIsStored(_ store: any FileStore) async throws {
        _ = try await store.write("gone.txt", contentType: "text/plain", createdAt: at, maxSize: 100, from: ByteChunks([[1]]))
        #expect(try await store.list().contains("gone.txt"))
        #expect(try await store.delete("gone.txt"))
        #expect(try await store.delete("gone.txt") == false)
        #expect(try await store.info("gone.txt") == nil)
        #expect(try await contents(store, "gone.txt") == nil)
        #expect(try await !store.list().contains("gone.txt"))
        #expect(Set(try await store.list()).isSuperset(of: ["ranges.bin", "once.txt", "tiny.txt"]))
    }
}
