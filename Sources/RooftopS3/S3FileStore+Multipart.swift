import AsyncHTTPClient
import NIOHTTP1
import RooftopStorage

extension S3FileStore {
    /// A multipart upload in progress: its id and the tags of the parts sent.
    struct Multipart {
        let key: String
        let uploadId: String
        var parts: [String] = []

        /// Sends the next part.
        mutating func send(_ bytes: [UInt8], store: S3FileStore) async throws {
            let number = parts.count + 1
            let response = try await store.send(
                .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadId)], body: bytes)
            try await store.expect([200], response, "store part \(number) of \(key)")
            guard let tag = response.headers.first(name: "etag") else {
                throw StorageError.unavailable("S3: no tag for part \(number) of \(key)")
            }
            parts.append(tag)
        }

        /// Joins the parts into the object.
        func complete(store: S3FileStore) async throws {
            let list = parts.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\($0.element)</ETag></Part>" }
            let body = Array(("<CompleteMultipartUpload>" + list.joined() + "</CompleteMultipartUpload>").utf8)
            let response = try await store.send(.POST, key: key, query: [("uploadId", uploadId)], body: body)
            let text = try await store.expect([200], response, "complete \(key)")
            // S3 may answer 200 with an error in the body.
            if text.contains("<Error>") { throw StorageError.unavailable("S3: cannot complete \(key): \(text.prefix(300))") }
        }

        /// Discards the parts sent.
        func abort(store: S3FileStore) async throws {
            _ = try await store.send(.DELETE, key: key, query: [("uploadId", uploadId)])
        }
    }

    /// Starts a multipart upload of `name` with its type and metadata.
    func startMultipart(_ name: String, _ metadata: [(String, String)]) async throws -> Multipart {
        let response = try await send(.POST, key: name, query: [("uploads", "")], headers: metadata)
        let text = try await expect([200], response, "start an upload of \(name)")
        guard let id = Self.elements("UploadId", in: text).first else { throw StorageError.unavailable("S3: no upload id for \(name)") }
        return Multipart(key: name, uploadId: id)
    }
}

extension S3FileStore {
    /// How many multipart uploads under the prefix were started and neither completed nor
    /// aborted (none, unless a node stopped mid-upload).
    package func pendingUploads() async throws -> Int {
        let response = try await send(.GET, key: nil, query: [("uploads", ""), ("prefix", configuration.prefix)])
        return Self.elements("UploadId", in: try await expect([200], response, "list uploads")).count
    }
}
