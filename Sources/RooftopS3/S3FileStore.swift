package import AsyncHTTPClient
import Foundation
package import NIOCore
import NIOHTTP1
package import RooftopCore
package import RooftopOutbound
import RooftopStorage

/// Files in an S3-compatible object store (AWS S3, MinIO, R2): one object per file, its type in
/// `Content-Type`, its tag and time in `x-amz-meta-rooftop-*`; every request signed (SigV4).
///
/// An upload that fits in one part (`partSize`, 8 MiB) is one `PUT`; a larger one is a multipart
/// upload whose parts are sent as they fill — one part in memory at a time — and which is aborted
/// when the body breaks off or passes the limit, so no partial object is ever visible.
/// Downloads stream the object's body (or one byte range of it) as it arrives.
package struct S3FileStore: FileStore {
    let configuration: S3Configuration
    let client: HTTPClient
    let signer: SigV4
    /// Bytes per part of a multipart upload (S3's minimum is 5 MiB).
    let partSize: Int
    /// The longest one request may take.
    let timeout: TimeAmount

    /// The client S3 is called with: the system's trust roots and `caFile`'s certificates (an
    /// S3-compatible store behind an internal certificate authority).
    package static func client(caFile: String?) throws(OutboundTrustError) -> HTTPClient {
        // Redirects refused, like every outbound client: a signed request is never replayed elsewhere.
        try OutboundClients.client("s3", configuration: HTTPClient.Configuration(redirectConfiguration: .disallow), caFile: caFile)
    }

    /// A store in `configuration`'s bucket, over `client`.
    package init(configuration: S3Configuration, client: HTTPClient = .shared, partSize: Int = 8 << 20, timeout: TimeAmount = .seconds(120)) {
        self.configuration = configuration
        self.client = client
        self.signer = SigV4(accessKeyId: configuration.accessKeyId, secretAccessKey: configuration.secretAccessKey, region: configuration.region)
        self.partSize = max(partSize, 5 << 20)
        self.timeout = timeout
    }

    package func write(_ name: String, contentType: String, createdAt: ParseDate, maxSize: Int64, from chunks: ByteChunks) async throws
        -> StoredFileInfo
    {
        guard StoredFileName.isValid(name) else { throw FileStoreError.invalidName }
        if try await info(name) != nil { throw FileStoreError.exists }
        let etag = StoredFileInfo.newETag()
        let metadata = [
            ("content-type", contentType), ("x-amz-meta-rooftop-etag", String(etag.dropFirst().dropLast())),
            ("x-amz-meta-rooftop-created", String(createdAt.millisecondsSince1970)),
        ]
        var size: Int64 = 0
        var part: [UInt8] = []
        var iterator = chunks.makeAsyncIterator()
        var upload: Multipart?
        do {
            while let chunk = try await iterator.next() {
                size += Int64(chunk.count)
                if size > maxSize { throw FileStoreError.tooLarge(limit: maxSize) }
                part.append(contentsOf: chunk)
                while part.count >= partSize {
                    if upload == nil { upload = try await startMultipart(name, metadata) }
                    try await upload?.send(Array(part.prefix(partSize)), store: self)
                    part.removeFirst(partSize)
                }
            }
            if var upload {
                if !part.isEmpty { try await upload.send(part, store: self) }
                try await upload.complete(store: self)
            } else {
                try await expect([200], try await send(.PUT, key: name, headers: metadata, body: part), "store \(name)")
            }
        } catch {
            if let upload { try? await upload.abort(store: self) }
            throw error
        }
        return StoredFileInfo(name: name, size: size, contentType: contentType, etag: etag, createdAt: createdAt)
    }

    package func info(_ name: String) async throws -> StoredFileInfo? {
        guard StoredFileName.isValid(name) else { return nil }
        let response = try await send(.HEAD, key: name)
        if response.status == .notFound { return nil }
        try await expect([200], response, "read \(name)")
        let headers = response.headers
        let created = headers.first(name: "x-amz-meta-rooftop-created").flatMap { Int64($0) } ?? 0
        return StoredFileInfo(
            name: name, size: headers.first(name: "content-length").flatMap { Int64($0) } ?? 0,
            contentType: headers.first(name: "content-type") ?? "application/octet-stream",
            etag: "\"" + (headers.first(name: "x-amz-meta-rooftop-etag") ?? String(created)) + "\"",
            createdAt: ParseDate(millisecondsSince1970: created))
    }

    package func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool {
        guard StoredFileName.isValid(name) else { return false }
        let headers = range.map { [("range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        let response = try await send(.GET, key: name, headers: headers)
        if response.status == .notFound { return false }
        try await expect([200, 206], response, "read \(name)", readingBody: false)
        for try await buffer in response.body { try await consume(Array(buffer.readableBytesView)) }
        return true
    }

    package func delete(_ name: String) async throws -> Bool {
        guard try await info(name) != nil else { return false }
        try await expect([200, 204], try await send(.DELETE, key: name), "delete \(name)")
        return true
    }

    package func list() async throws -> [String] {
        var names: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", configuration.prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send(.GET, key: nil, query: query)
            let xml = try await expect([200], response, "list the bucket")
            names += Self.elements("Key", in: xml).map { String($0.dropFirst(configuration.prefix.count)) }.filter(StoredFileName.isValid)
            token = xml.contains("<IsTruncated>true</IsTruncated>") ? Self.elements("NextContinuationToken", in: xml).first : nil
        } while token != nil
        return names
    }

    /// Creates the bucket (tests and first runs); an existing bucket of this account is fine.
    package func createBucket() async throws {
        let response = try await send(.PUT, key: nil)
        let text = String(buffer: try await response.body.collect(upTo: 1 << 16))
        guard response.status == .ok || text.contains("BucketAlreadyOwnedByYou") else {
            throw StorageError.unavailable("S3: cannot create bucket \(configuration.bucket): \(response.status) \(text.prefix(300))")
        }
    }

    // MARK: Requests

    /// One signed request for `key` (the bucket itself when `nil`).
    func send(
        _ method: HTTPMethod, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPClientResponse {
        guard let endpoint = URLComponents(string: configuration.endpoint), let scheme = endpoint.scheme, let host = endpoint.host else {
            throw StorageError.unavailable("S3: the endpoint \(configuration.endpoint) is not a URL")
        }
        let authority = (configuration.pathStyle ? host : "\(configuration.bucket).\(host)") + (endpoint.port.map { ":\($0)" } ?? "")
        var path = configuration.pathStyle ? "/" + SigV4.encode(configuration.bucket) : ""
        if let key { path += "/" + SigV4.encode(configuration.prefix + key, keepSlash: true) }
        if path.isEmpty { path = "/" }
        let payload = body ?? []
        let payloadHash = SigV4.sha256(payload)
        let amzDate = SigV4.amzDate(Date())
        let signed = [("host", authority), ("x-amz-date", amzDate), ("x-amz-content-sha256", payloadHash)] + headers
        let authorization = signer.authorization(
            method: method.rawValue, path: path, query: query, headers: signed, payloadHash: payloadHash, amzDate: amzDate)
        let queryText = query.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&")
        var request = HTTPClientRequest(url: "\(scheme)://\(authority)\(path)\(queryText.isEmpty ? "" : "?" + queryText)")
        request.method = method
        for (name, value) in signed where name != "host" { request.headers.add(name: name, value: value) }
        request.headers.add(name: "authorization", value: authorization)
        if body != nil || method == .PUT || method == .POST {
            request.body = .bytes(ByteBuffer(bytes: payload))
            request.headers.replaceOrAdd(name: "content-length", value: String(payload.count))
        }
        do {
            return try await client.execute(request, timeout: timeout)
        } catch {
            throw StorageError.unavailable("S3: \(method) \(key ?? configuration.bucket): \(error)")
        }
    }

    /// The body as text when the status is one of `statuses` (left unread, for the caller to
    /// stream, unless `readingBody`); else the service's error.
    @discardableResult
    func expect(_ statuses: [UInt], _ response: HTTPClientResponse, _ action: String, readingBody: Bool = true) async throws -> String {
        if !readingBody && statuses.contains(response.status.code) { return "" }
        let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
        guard statuses.contains(response.status.code) else {
            throw StorageError.unavailable("S3: cannot \(action): \(response.status.code) \(text.prefix(500))")
        }
        return text
    }

    /// The texts of every `<name>…</name>` element (XML entities decoded).
    static func elements(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            found.append(
                String(rest[open.upperBound..<close.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&"))
            rest = rest[close.upperBound...]
        }
        return found
    }
}
