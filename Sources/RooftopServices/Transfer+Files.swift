import Foundation
import RooftopCore
import RooftopStorage

/// Files in an export: after the classes, each stored file as a `file` line (name, type, time,
/// size, how many chunk lines follow) and its bytes in `fileChunk` lines of 192 KiB (256 KiB of
/// base64), so neither side ever holds more than a chunk of a file.
extension Transfer {
    /// Bytes per `fileChunk` line.
    static let fileChunkSize = 192 * 1024

    /// Writes every file of `files`, by name.
    static func exportFiles(_ files: any FileStore, emit: (String) async throws -> Void, progress: (String, Int, Int) -> Void) async throws {
        let names = try await files.list().sorted()
        for (index, name) in names.enumerated() {
            guard let info = try await files.info(name) else { continue }
            let chunks = (Int(info.size) + fileChunkSize - 1) / fileChunkSize
            try await emit(
                line([
                    "file": [
                        "name": .string(name), "contentType": .string(info.contentType), "createdAt": .string(info.createdAt.iso),
                        "size": .number(Double(info.size)), "chunks": .number(Double(chunks)),
                    ]
                ]))
            var pending: [UInt8] = []
            var written = 0
            _ = try await files.read(name, range: nil) { bytes in
                pending.append(contentsOf: bytes)
                while pending.count >= fileChunkSize {
                    try await emit(line(["fileChunk": .string(Data(pending.prefix(fileChunkSize)).base64EncodedString())]))
                    pending.removeFirst(fileChunkSize)
                    written += 1
                }
            }
            if !pending.isEmpty {
                try await emit(line(["fileChunk": .string(Data(pending).base64EncodedString())]))
                written += 1
            }
            guard written == chunks else { throw TransferError("file \(name) changed while it was exported") }
            progress("files", index + 1, names.count)
        }
    }

    /// Stores the file a `file` line announces, pulling its chunk lines from `next`.
    static func importFile(
        _ header: JSON, into files: (any FileStore)?, line: Int, next: @escaping () -> String?
    ) async throws {
        guard let files else { throw TransferError("line \(line): the export carries files, and no file store was given") }
        guard let name = header["name"]?.stringValue, let type = header["contentType"]?.stringValue,
            let created = header["createdAt"]?.stringValue.flatMap(ParseDate.init(iso:)), let size = header["size"]?.intValue,
            let chunks = header["chunks"]?.intValue, chunks >= 0
        else { throw TransferError("line \(line): a file line needs name, contentType, createdAt, size and chunks") }
        var remaining = chunks
        let body = ByteChunks {
            guard remaining > 0 else { return nil }
            remaining -= 1
            guard let text = next(), let chunk = (try? JSONParser.parse(text))?["fileChunk"]?.stringValue,
                let bytes = Data(base64Encoded: chunk)
            else { throw TransferError("after line \(line): file \(name) lacks its chunk lines") }
            return Array(bytes)
        }
        let info = try await files.write(name, contentType: type, createdAt: created, maxSize: Int64(size), from: body)
        guard info.size == Int64(size) else { throw TransferError("line \(line): file \(name) is not \(size) bytes") }
    }
}
