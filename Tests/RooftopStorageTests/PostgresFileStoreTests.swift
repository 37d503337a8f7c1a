import Foundation
import RooftopCore
import RooftopPostgres
import RooftopStorage
import RooftopTesting
import Testing

/// Files in PostgreSQL pass the suite the directory passes, on a real server.
@Suite struct PostgresFileStoreTests {
    @Test func conformance() async throws {
        let (store, task) = try await TestStores.postgres()
        defer { task.cancel() }
        try await FileStoreConformance.runAll(PostgresFileStore(store: store))
    }

    /// Bytes are kept in chunks of 256 KiB, and a range that spans chunk borders reads across them.
    @Test func largeFilesAreChunked() async throws {
        let (store, task) = try await TestStores.postgres()
        defer { task.cancel() }
        let files = PostgresFileStore(store: store)
        let bytes = FileStoreConformance.pattern(PostgresFileStore.chunkSize * 3 + 17, seed: 3)
        let info = try await files.write(
            "chunked.bin", contentType: "application/octet-stream", createdAt: ParseDate(millisecondsSince1970: 0), maxSize: 1 << 30,
            from: FileStoreConformance.chunks(bytes, size: 100_000))
        #expect(info.size == Int64(bytes.count))
        let low = Int64(PostgresFileStore.chunkSize - 5)
        let high = Int64(PostgresFileStore.chunkSize * 2 + 5)
        #expect(try await FileStoreConformance.contents(files, "chunked.bin", range: low...high) == Array(bytes[Int(low)...Int(high)]))
        #expect(try await FileStoreConformance.contents(files, "chunked.bin") == bytes)
    }
}
