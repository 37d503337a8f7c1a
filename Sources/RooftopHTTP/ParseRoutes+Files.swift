import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// `/files`: Parse's upload, download and delete, streamed both ways.
extension ParseRoutes {
    /// `POST /files/:filename`: the body is the file. Who may upload, the name, its extension and
    /// a declared `Content-Length` over the limit are all refused before a byte is read; the
    /// body then streams to the store, which stops at the limit and keeps nothing of a body
    /// that breaks off.
    func uploadFile(_ request: ParseRequest, _ http: Request) async throws -> Response {
        var declared = http.headers[.contentLength].map { Int($0) ?? Int.max }
        var contentType = http.headers[.contentType]
        let body: ByteChunks
        if let base64 = request.body["base64"]?.stringValue {
            // The JavaScript SDK's JSON form (already read, within the limit).
            guard let data = Data(base64Encoded: base64) else { throw ParseError(.fileSaveError, "Invalid file upload.") }
            declared = data.count
            contentType = request.body["_ContentType"]?.stringValue
            body = ByteChunks([Array(data)])
        } else {
            body = ByteChunks(http.body.map { Array($0.readableBytesView) })
        }
        let upload = try await files.admit(
            filename: Self.fileName(request.pathParameters["filename"]), contentType: contentType, declaredLength: declared,
            principal: request.principal)
        // Admitted: now the client that waits for it may send the body.
        await request.continueResponse?.send()
        let info = try await files.save(upload, body: body)
        let url = fileURL(info.name, request: http)
        var response = ParseResponder.json(JSONWriter.bytes(["url": .string(url), "name": .string(info.name)]), status: .created)
        response.headers[.location] = url
        return response
    }

    /// `GET` (and `HEAD`) `/files/:appId/:filename`: the file, with validators, ranges and the
    /// safety headers (`FileHeaders`); under `fileAccess: signed` only with a valid, unexpired
    /// signature in the query or the master key.
    func serveFile(_ request: ParseRequest, _ http: Request) async throws -> Response {
        guard Self.fileName(request.pathParameters["appId"]) == config.appId else { throw UnauthorizedError(message: "Invalid application ID.") }
        let name = Self.fileName(request.pathParameters["filename"])
        // Before the store is asked: a refused caller learns nothing, not even whether the file exists.
        if let signing = files.signing, !signing.isValid(query: http.uri.query, for: name), try !isMaster(request, http) {
            throw FileAccessDenied()
        }
        guard let info = try await files.info(name) else { throw ParseError(.objectNotFound, "File not found.") }
        var headers = FileHeaders.headers(for: info)
        if FileHeaders.notModified(info, http.headers) { return Response(status: .notModified, headers: headers) }
        let range: ClosedRange<Int64>?
        switch FileHeaders.range(http.headers, info) {
        case .whole: range = nil
        case .partial(let part): range = part
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(info.size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? info.size
        if let range { headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(info.size)" }
        headers[.contentLength] = String(length)
        // HEAD: the same headers (the length GET would send), no body.
        if http.method == .head { return Response(status: range == nil ? .ok : .partialContent, headers: headers) }
        let body = ResponseBody(contentLength: Int(length)) { [files] writer in
            // The file was deleted between the headers and the body: the connection is cut
            // short rather than the client given a wrong body.
            guard try await files.read(name, range: range, into: { chunk in try await writer.write(ByteBuffer(bytes: chunk)) }) else {
                throw ParseError(.objectNotFound, "File not found.")
            }
            try await writer.finish(nil)
        }
        return Response(status: range == nil ? .ok : .partialContent, headers: headers, body: body)
    }

    /// `DELETE /files/:filename` (master key): 200 with an empty body, as Parse; 153 when no such
    /// file is stored, a second delete of the same file included.
    func deleteFile(_ request: ParseRequest, _ http: Request) async throws -> Response {
        try await files.delete(Self.fileName(request.pathParameters["filename"]))
        return Response(status: .ok)
    }

    /// A path segment as the name it spells (`%20` is a space); one that does not decode stays
    /// as sent, and the name rules refuse it.
    static func fileName(_ segment: String?) -> String {
        let raw = segment ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// Whether `http` carries the master key (a download route needs no keys, so they are only
    /// read here); a wrong one is refused as on any route.
    func isMaster(_ request: ParseRequest, _ http: Request) throws -> Bool {
        guard http.headers.value(ParseHeader.masterKey) != nil || http.headers[.authorization] != nil else { return false }
        var body: [String: JSON] = [:]
        return try RequestAuthenticator(config: config).authenticate(headers: http.headers, body: &body, clientIP: request.clientIP).isMaster
    }

    /// The signer of answers' file URLs for `request`; `nil` when files are public.
    func signedFileURLs(_ request: Request) -> SignedFileURLs? {
        files.signing.map { SignedFileURLs(signing: $0, base: apiBase(request), appId: config.appId) }
    }

    /// `publicServerURL` (else the request's host and the mount path), without a final `/`.
    func apiBase(_ request: Request) -> String {
        if let publicURL = config.publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        return "http://\(request.head.authority ?? "127.0.0.1")\(config.mountPath)"
    }

    /// The URL a file is served at: `publicServerURL` (else the request's host) and the mount
    /// path, `/files/<appId>/<name>`; signed under `fileAccess: signed`.
    func fileURL(_ name: String, request: Request) -> String {
        if let signed = signedFileURLs(request) { return signed.url(name) }
        let base = apiBase(request)
        let segment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: segment) ?? name
        return "\(base)/files/\(config.appId.addingPercentEncoding(withAllowedCharacters: segment) ?? "")/\(encoded)"
    }
}
