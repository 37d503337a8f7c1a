package import RooftopCore

/// Where uploaded files are kept: a directory, the database, or object storage.
///
/// Files are immutable: a name is written once (names are generated and unguessable), read
/// any number of times and deleted. Bytes stream in and out, chunk by chunk, so a file's size
/// never shows in the server's memory. Every adapter passes `FileStoreConformance`
/// (RooftopTesting).
package protocol FileStore: Sendable {
    /// Stores `chunks` as `name`. Nothing is stored — no partial file is left anywhere — when
    /// the chunks stop with an error (a client that went away), when they pass `maxSize` bytes
    /// (`FileStoreError.tooLarge`), or when `name` is not a valid stored name
    /// (`FileStoreError.invalidName`) or already exists (`FileStoreError.exists`).
    func write(_ name: String, contentType: String, createdAt: ParseDate, maxSize: Int64, from chunks: ByteChunks) async throws
        -> StoredFileInfo
    /// What is known about `name`; `nil` when no such file is stored (or the name is not valid).
    func info(_ name: String) async throws -> StoredFileInfo?
    /// Hands `name`'s bytes in `range` (inclusive offsets, within the file; the whole file when
    /// `nil`) to `consume`, in order, a chunk at a time; `false` when no such file is stored.
    func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool
    /// Deletes `name`; `false` when there was no such file.
    func delete(_ name: String) async throws -> Bool
    /// Every stored file's name, in no particular order.
    func list() async throws -> [String]
}

/// Why a store refused a write.
package enum FileStoreError: Error, Equatable {
    /// More than `limit` bytes arrived.
    case tooLarge(limit: Int64)
    /// Not a name `StoredFileName` accepts.
    case invalidName
    /// A file of that name is already stored.
    case exists
}
