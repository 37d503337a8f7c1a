import Foundation
package import RooftopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// Files in a directory (by default `<dataDir>/files`): one file per stored file, its type and
/// entity tag beside it in `.meta/`, uploads in progress in `.tmp/`.
///
/// A write goes to a temporary file that is renamed into place once complete and synced, so a
/// reader never sees half a file and a failed upload leaves nothing behind. Every path is built
/// from a name `StoredFileName` accepts, so no name reaches outside the directory. Files are
/// created 0600, like the rest of the data directory.
package struct DiskFileStore: FileStore {
    /// The directory.
    package let directory: String
    /// How many bytes a read hands on at a time.
    static let chunkSize = 64 * 1024

    /// A store in `directory`, created (0700) if needed; uploads a crash interrupted are removed.
    package init(directory: String) throws {
        self.directory = directory
        for path in [directory, directory + "/.meta", directory + "/.tmp"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/.tmp")) ?? [] {
            unlink(directory + "/.tmp/" + leftover)
        }
    }

    private func dataPath(_ name: String) -> String { directory + "/" + name }
    private func metaPath(_ name: String) -> String { directory + "/.meta/" + name }

    /// Streams `chunks` into a temporary file, then renames it (and its metadata) into place.
    package func write(_ name: String, contentType: String, createdAt: ParseDate, maxSize: Int64, from chunks: ByteChunks) async throws
        -> StoredFileInfo
    {
        guard StoredFileName.isValid(name) else { throw FileStoreError.invalidName }
        if access(dataPath(name), F_OK) == 0 { throw FileStoreError.exists }
        let temporary = directory + "/.tmp/" + UUID().uuidString
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("create", temporary) }
        var size: Int64 = 0
        do {
            for try await chunk in chunks {
                size += Int64(chunk.count)
                if size > maxSize { throw FileStoreError.tooLarge(limit: maxSize) }
                try Self.writeAll(fd, chunk)
            }
            // The one call here that waits for the disk; page-cache reads and writes stay inline.
            // errno is per thread: it is read on the thread that synced.
            let syncError = try await BlockingCall.run { fsync(fd) == 0 ? nil : errno }
            if let syncError { throw Self.failure("sync", temporary, errno: syncError) }
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        let info = StoredFileInfo(name: name, size: size, contentType: contentType, etag: StoredFileInfo.newETag(), createdAt: createdAt)
        do {
            try writeMeta(info)
            // link(2) fails on an existing name where rename(2) would replace it.
            guard link(temporary, dataPath(name)) == 0 else {
                throw errno == EEXIST ? FileStoreError.exists : Self.failure("store", name)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        unlink(temporary)
        return info
    }

    private func writeMeta(_ info: StoredFileInfo) throws {
        let json: JSON = [
            "contentType": .string(info.contentType), "etag": .string(info.etag),
            "createdAt": .number(Double(info.createdAt.millisecondsSince1970)),
        ]
        let temporary = directory + "/.tmp/" + UUID().uuidString + ".meta"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("create", temporary) }
        do {
            try Self.writeAll(fd, JSONWriter.bytes(json))
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, metaPath(info.name)) == 0 else {
            unlink(temporary)
            throw Self.failure("store metadata of", info.name)
        }
    }

    /// The file's size from the file system, its type, tag and time from `.meta/`.
    package func info(_ name: String) async throws -> StoredFileInfo? {
        guard StoredFileName.isValid(name) else { return nil }
        var status = stat()
        guard lstat(dataPath(name), &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let meta = (try? Data(contentsOf: URL(fileURLWithPath: metaPath(name)))).flatMap { try? JSONParser.parse(Array($0)) } ?? [:]
        #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1000
        #else
            let modified = Int64(status.st_mtim.tv_sec) * 1000
        #endif
        let created = meta["createdAt"]?.numberValue.map { Int64($0) } ?? modified
        return StoredFileInfo(
            name: name, size: Int64(status.st_size), contentType: meta["contentType"]?.stringValue ?? "application/octet-stream",
            etag: meta["etag"]?.stringValue ?? "\"\(status.st_size)-\(created)\"", createdAt: ParseDate(millisecondsSince1970: created))
    }

    /// Reads `range` of the file, `chunkSize` bytes at a time.
    package func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool {
        guard StoredFileName.isValid(name) else { return false }
        let fd = open(dataPath(name), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            // A symbolic link planted in the directory (ELOOP) is not a stored file.
            if errno == ENOENT || errno == ELOOP { return false }
            throw Self.failure("open", name)
        }
        defer { close(fd) }
        var offset = range?.lowerBound ?? 0
        let end = range.map { $0.upperBound + 1 } ?? Int64.max
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while offset < end {
            let wanted = Int(min(Int64(Self.chunkSize), end - offset))
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("read", name)
            }
            if count == 0 { break }
            try await consume(Array(buffer[0..<count]))
            offset += Int64(count)
        }
        return true
    }

    /// Removes the file, then its metadata.
    package func delete(_ name: String) async throws -> Bool {
        guard StoredFileName.isValid(name) else { return false }
        guard unlink(dataPath(name)) == 0 else {
            if errno == ENOENT { return false }
            throw Self.failure("delete", name)
        }
        unlink(metaPath(name))
        return true
    }

    /// Every regular file with a valid name (not the `.meta` and `.tmp` directories).
    package func list() async throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { StoredFileName.isValid($0) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemWrite(fd, base + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write", "a file")
            }
            written += count
        }
    }

    /// write(2), out of the way of `FileStore.write`.
    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }

    private static func failure(_ action: String, _ what: String, errno code: Int32 = errno) -> StorageError {
        StorageError.unavailable("cannot \(action) \(what): \(String(cString: strerror(code)))")
    }
}
