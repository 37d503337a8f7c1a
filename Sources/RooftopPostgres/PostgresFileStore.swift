import PostgresNIO
package import RooftopCore
import RooftopStorage

/// Files in the PostgreSQL database (`fileStorage: database`): every node that shares the
/// database shares the files, with no other service.
///
/// A file is a `_FILE` row and its bytes are `_FILE_CHUNK` rows of at most 256 KiB. An upload
/// inserts the row unfinished, then each chunk as it fills, each statement on a pooled
/// connection of its own — a slow client holds no connection and no transaction open — and
/// marks the row complete at the end; a failed upload deletes the row and its chunks. Readers
/// only see complete rows, and read one chunk per statement.
package struct PostgresFileStore: FileStore {
    let store: PostgresStore
    /// Bytes per chunk row.
    package static let chunkSize = 256 * 1024

    /// Files in `store`'s database.
    package init(store: PostgresStore) { self.store = store }

    package func write(_ name: String, contentType: String, createdAt: ParseDate, maxSize: Int64, from chunks: ByteChunks) async throws
        -> StoredFileInfo
    {
        guard StoredFileName.isValid(name) else { throw FileStoreError.invalidName }
        let etag = StoredFileInfo.newETag()
        let created = createdAt.millisecondsSince1970
        // A row another upload left unfinished (its node stopped mid-upload) gives way.
        try await execute(#"DELETE FROM "_FILE" WHERE "name" = \#(name) AND NOT "complete""#)
        do {
            try await execute(
                #"""
                INSERT INTO "_FILE" ("name", "contentType", "size", "etag", "createdAt", "complete")
                VALUES (\#(name), \#(contentType), 0, \#(etag), \#(created), false)
                """#)
        } catch let error as StorageError where error.duplicateField != nil {
            throw FileStoreError.exists
        }
        var size: Int64 = 0
        do {
            var pending: [UInt8] = []
            pending.reserveCapacity(Self.chunkSize)
            var index: Int32 = 0
            for try await chunk in chunks {
                size += Int64(chunk.count)
                if size > maxSize { throw FileStoreError.tooLarge(limit: maxSize) }
                var rest = chunk[...]
                while !rest.isEmpty {
                    let take = min(Self.chunkSize - pending.count, rest.count)
                    pending.append(contentsOf: rest.prefix(take))
                    rest = rest.dropFirst(take)
                    if pending.count == Self.chunkSize {
                        try await insertChunk(name, index, pending)
                        index += 1
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            }
            if !pending.isEmpty { try await insertChunk(name, index, pending) }
            try await execute(#"UPDATE "_FILE" SET "size" = \#(size), "complete" = true WHERE "name" = \#(name)"#)
        } catch {
            try? await execute(#"DELETE FROM "_FILE" WHERE "name" = \#(name)"#)
            throw error
        }
        return StoredFileInfo(name: name, size: size, contentType: contentType, etag: etag, createdAt: createdAt)
    }

    private func insertChunk(_ name: String, _ index: Int32, _ bytes: [UInt8]) async throws {
        let data = ByteBuffer(bytes: bytes)
        try await execute(#"INSERT INTO "_FILE_CHUNK" ("name", "n", "data") VALUES (\#(name), \#(index), \#(data))"#)
    }

    package func info(_ name: String) async throws -> StoredFileInfo? {
        guard StoredFileName.isValid(name) else { return nil }
        let rows = try await store.query(
            #"SELECT "contentType", "size", "etag", "createdAt" FROM "_FILE" WHERE "name" = \#(name) AND "complete""#
        ) { row in
            let (type, size, etag, created) = try row.decode((String, Int64, String, Int64).self)
            return StoredFileInfo(name: name, size: size, contentType: type, etag: etag, createdAt: ParseDate(millisecondsSince1970: created))
        }
        return rows.first
    }

    package func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool {
        guard let info = try await info(name) else { return false }
        guard info.size > 0 else { return true }
        let wanted = range ?? 0...(info.size - 1)
        let size = Int64(Self.chunkSize)
        for index in (wanted.lowerBound / size)...(wanted.upperBound / size) {
            let n = Int32(index)
            let rows = try await store.query(#"SELECT "data" FROM "_FILE_CHUNK" WHERE "name" = \#(name) AND "n" = \#(n)"#) { row in
                try row.decode(ByteBuffer.self)
            }
            // Deleted while being read.
            guard let buffer = rows.first else { return true }
            let bytes = buffer.readableBytesView
            let start = index * size
            let from = Int(max(wanted.lowerBound, start) - start)
            let to = Int(min(wanted.upperBound, start + Int64(bytes.count) - 1) - start)
            guard from <= to else { continue }
            let base = bytes.startIndex
            try await consume(Array(bytes[(base + from)...(base + to)]))
        }
        return true
    }

    package func delete(_ name: String) async throws -> Bool {
        guard StoredFileName.isValid(name) else { return false }
        let rows = try await store.query(#"DELETE FROM "_FILE" WHERE "name" = \#(name) AND "complete" RETURNING "name""#) { row in
            try row.decode(String.self)
        }
        return !rows.isEmpty
    }

    package func list() async throws -> [String] {
        try await store.query(#"SELECT "name" FROM "_FILE" WHERE "complete""#) { row in try row.decode(String.self) }
    }

    private func execute(_ query: PostgresQuery) async throws {
        _ = try await store.query(query) { _ in () }
    }
}
