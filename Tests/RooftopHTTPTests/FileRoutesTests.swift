import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A file answer as the tests read it.
struct FileReply {
    let status: Int
    let headers: HTTPFields
    let body: [UInt8]
    var json: JSON { (try? JSONParser.parse(body)) ?? .null }
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}

/// Parse's files API over loopback HTTP: upload, download with validators and ranges, delete.
@Suite struct FileRoutesTests: LiveServerTest {
    func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: [UInt8]? = nil, headers extra: [String: String] = [:],
        master: Bool = false, session: String? = nil
    ) async throws -> FileReply {
        var headers: HTTPFields = [:]
        headers[HTTPField.Name("X-Parse-Application-Id")!] = testAppId
        if master { headers[HTTPField.Name("X-Parse-Master-Key")!] = testMasterKey }
        if let session { headers[HTTPField.Name("X-Parse-Session-Token")!] = session }
        for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }) { response in
            FileReply(status: Int(response.status.code), headers: response.headers, body: Array(response.body.readableBytesView))
        }
    }

    func signUp(_ client: any TestClientProtocol, _ name: String = "ana") async throws -> String {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"correct horse \#(name)"}"#)
        return try #require(reply.json["sessionToken"]?.stringValue)
    }

    /// The path of a file URL (the test client speaks paths).
    func path(_ url: String) throws -> String { try #require(URLComponents(string: url)?.percentEncodedPath) }

    /// A signed-in user's picture: 201 with an unguessable name that keeps the original, served
    /// with its type, length, validators and the safety headers; deleted with the master key only.
    @Test func profilePictureUploadServeAndDelete() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let token = try await signUp(client)
            let upload = try await send(
                client, .post, "/parse/files/avatar.png", body: pngBytes, headers: ["Content-Type": "image/png"], session: token)
            #expect(upload.status == 201)
            let name = try #require(upload.json["name"]?.stringValue)
            let url = try #require(upload.json["url"]?.stringValue)
            #expect(name.wholeMatch(of: /[0-9a-f]{32}_avatar\.png/) != nil)
            #expect(url.hasSuffix("/parse/files/\(testAppId)/\(name)"))
            #expect(upload.header("Location") == url)

            let served = try await send(client, .get, try path(url))
            #expect(served.status == 200)
            #expect(served.body.elementsEqual(pngBytes))
            #expect(served.header("Content-Type") == "image/png")
            #expect(served.header("Content-Length") == String(pngBytes.count))
            #expect(served.header("ETag")?.hasPrefix("\"") == true)
            #expect(served.header("Last-Modified")?.hasSuffix(" GMT") == true)
            #expect(served.header("X-Content-Type-Options") == "nosniff")
            #expect(served.header("Content-Security-Policy") == "default-src 'none'; sandbox")
            #expect(served.header("Content-Disposition") == nil)
            #expect(served.header("Cache-Control") == "no-store")
            #expect(served.header("Accept-Ranges") == "bytes")

            let refused = try await send(client, .delete, "/parse/files/\(name)", session: token)
            #expect(refused.status == 403)
            #expect(try await send(client, .get, try path(url)).status == 200)
            let deleted = try await send(client, .delete, "/parse/files/\(name)", master: true)
            #expect(deleted.status == 200)
            let gone = try await send(client, .get, try path(url))
            #expect(gone.status == 404)
            #expect(gone.json == ["code": 101, "error": "File not found."])
            let replay = try await send(client, .delete, "/parse/files/\(name)", master: true)
            #expect(replay.status == 400)
            #expect(replay.json == ["code": 153, "error": "Could not delete file."])
        }
    }

    /// `If-None-Match` and `If-Modified-Since` answer 304; one byte range is 206 with its
    /// `Content-Range`; a range past the end is 416; several ranges get the whole file.
    @Test func conditionalAndRangeRequests() async throws {
        try await withServer(files: { $0.enableForPublic = true }) { (client: any TestClientProtocol) async throws in
            let upload = try await send(client, .post, "/parse/files/a.png", body: pngBytes, headers: ["Content-Type": "image/png"])
            let uri = try path(try #require(upload.json["url"]?.stringValue))
            let first = try await send(client, .get, uri)
            let etag = try #require(first.header("ETag"))
            let modified = try #require(first.header("Last-Modified"))
            let cached = try await send(client, .get, uri, headers: ["If-None-Match": etag])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == etag)
            #expect(try await send(client, .get, uri, headers: ["If-None-Match": "\"other\", \(etag)"]).status == 304)
            #expect(try await send(client, .get, uri, headers: ["If-None-Match": "\"other\""]).status == 200)
            #expect(try await send(client, .get, uri, headers: ["If-Modified-Since": modified]).status == 304)
            #expect(try await send(client, .get, uri, headers: ["If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"]).status == 200)
            #expect(try await send(client, .get, uri, headers: ["If-Modified-Since": "yesterday"]).status == 200)

            let part = try await send(client, .get, uri, headers: ["Range": "bytes=0-7"])
            #expect(part.status == 206)
            #expect(part.body == Array(pngBytes[0...7]))
            #expect(part.header("Content-Range") == "bytes 0-7/\(pngBytes.count)")
            #expect(part.header("Content-Length") == "8")
            let tail = try await send(client, .get, uri, headers: ["Range": "bytes=-3"])
            #expect(tail.body == Array(pngBytes.suffix(3)))
            let open = try await send(client, .get, uri, headers: ["Range": "bytes=2000-"])
            #expect(open.body == Array(pngBytes[2000...]))
            let past = try await send(client, .get, uri, headers: ["Range": "bytes=99999-"])
            #expect(past.status == 416)
            #expect(past.header("Content-Range") == "bytes */\(pngBytes.count)")
            let several = try await send(client, .get, uri, headers: ["Range": "bytes=0-1,4-5"])
            #expect(several.status == 200)
            #expect(several.body.elementsEqual(pngBytes))
            let stale = try await send(client, .get, uri, headers: ["Range": "bytes=0-1", "If-Range": "\"old\""])
            #expect(stale.status == 200)
        }
    }

    /// Parse's `fileUpload` switches: the public and anonymous users are refused by default,
    /// signed-in users are not; the master key always may.
    @Test func uploadRulesFollowParse() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let anonymous = try await send(client, .post, "/parse/files/a.png", body: pngBytes)
            #expect(anonymous.status == 400)
            #expect(anonymous.json == ["code": 130, "error": "File upload by public is disabled."])
            let guest = try await call(
                client, .post, "/parse/users", body: #"{"authData":{"anonymous":{"id":"d8a1b1c2-0000-4000-8000-000000000001"}}}"#)
            let guestToken = try #require(guest.json["sessionToken"]?.stringValue)
            let byGuest = try await send(client, .post, "/parse/files/a.png", body: pngBytes, session: guestToken)
            #expect(byGuest.json == ["code": 130, "error": "File upload by anonymous user is disabled."])
            #expect(try await send(client, .post, "/parse/files/a.png", body: pngBytes, session: try await signUp(client)).status == 201)
            #expect(try await send(client, .post, "/parse/files/a.png", body: pngBytes, master: true).status == 201)
            let empty = try await send(client, .post, "/parse/files/a.png", body: [], master: true)
            #expect(empty.json == ["code": 130, "error": "Invalid file upload."])
            let unnamed = try await send(client, .post, "/parse/files", body: pngBytes, master: true)
            #expect(unnamed.json == ["code": 122, "error": "Filename not provided."])
        }
        try await withServer(files: { $0.enableForAuthenticatedUser = false }) { (client: any TestClientProtocol) async throws in
            let reply = try await send(client, .post, "/parse/files/a.png", body: pngBytes, session: try await signUp(client))
            #expect(reply.json == ["code": 130, "error": "File upload by authenticated user is disabled."])
        }
    }

    /// An unmodified Parse JavaScript SDK's `new Parse.File(name, {base64})`: a JSON body with
    /// the keys and the bytes in base64, no key header; and the iOS/Android form (raw bytes, key
    /// headers, `Content-Type`) is every other test's.
    @Test func javaScriptSDKsBase64FormUploads() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let token = try await signUp(client)
            let body =
                #"{"base64":"\#(Data("Working at Parse is great!".utf8).base64EncodedString())","_ContentType":"text/plain","#
                + #""_ApplicationId":"\#(testAppId)","_JavaScriptKey":"","_ClientVersion":"js5.3.0","#
                + #""_InstallationId":"a1b2c3d4-0000-4000-8000-000000000000","_SessionToken":"\#(token)"}"#
            var headers: HTTPFields = [:]
            headers[.contentType] = "text/plain"
            let reply = try await client.execute(uri: "/parse/files/myfile.txt", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                FileReply(status: Int($0.status.code), headers: $0.headers, body: Array($0.body.readableBytesView))
            }
            #expect(reply.status == 201)
            let url = try #require(reply.json["url"]?.stringValue)
            let served = try await send(client, .get, try path(url))
            #expect(String(decoding: served.body, as: UTF8.self) == "Working at Parse is great!")
            #expect(served.header("Content-Type") == "text/plain")
            #expect(served.header("Content-Disposition") == "attachment; filename=\"myfile.txt\"")
            let anonymous = body.replacingOccurrences(of: #","_SessionToken":"\#(token)""#, with: "")
            let refused = try await client.execute(uri: "/parse/files/a.txt", method: .post, headers: headers, body: ByteBuffer(string: anonymous)) {
                FileReply(status: Int($0.status.code), headers: $0.headers, body: Array($0.body.readableBytesView))
            }
            #expect(refused.json == ["code": 130, "error": "File upload by public is disabled."])
        }
    }

    /// With `deleteUserFiles`, deleting a user deletes the files only it referred to; a file
    /// another object refers to stays. Without it, every file stays.
    @Test func deletingAUserDeletesTheFilesOnlyItReferredTo() async throws {
        for enabled in [true, false] {
            try await withServer(files: { $0.deleteUserFiles = enabled }) { (client: any TestClientProtocol) async throws in
                let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse ana"}"#)
                let token = try #require(signUp.json["sessionToken"]?.stringValue)
                let anaId = try #require(signUp.json["objectId"]?.stringValue)
                var uploaded: [(name: String, path: String)] = []
                for name in ["own.png", "shared.png"] {
                    let reply = try await send(
                        client, .post, "/parse/files/\(name)", body: pngBytes, headers: ["Content-Type": "image/png"], session: token)
                    uploaded.append((try #require(reply.json["name"]?.stringValue), try path(try #require(reply.json["url"]?.stringValue))))
                }
                let own = uploaded[0]
                let shared = uploaded[1]
                let fields = #"{"picture":{"__type":"File","name":"\#(own.name)"},"gallery":[{"__type":"File","name":"\#(shared.name)"}]}"#
                #expect(try await call(client, .put, "/parse/users/\(anaId)", body: fields, headers: ["X-Parse-Session-Token": token]).status == 200)
                let note = #"{"cover":{"__type":"File","name":"\#(shared.name)"}}"#
                #expect(try await call(client, .post, "/parse/classes/Note", body: note, master: true).status == 201)
                #expect(try await call(client, .delete, "/parse/users/\(anaId)", headers: ["X-Parse-Session-Token": token]).status == 200)
                #expect(try await send(client, .get, own.path).status == (enabled ? 404 : 200))
                #expect(try await send(client, .get, shared.path).status == 200)
            }
        }
    }

    /// Names that try to reach outside the store, carry NUL or are too long are 122; downloads
    /// of such names find nothing.
    @Test func hostileNamesAreRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let invalid: JSON = ["code": 122, "error": "Filename contains invalid characters."]
            for name in ["..%2F..%2Fdata.db", "%2E%2E", "a%2Fb.png", "%2Fetc%2Fpasswd", "nul%00.png", ".hidden.png", "a%5Cb.png", "%E2%80%AEgnp.exe"]
            {
                let reply = try await send(client, .post, "/parse/files/\(name)", body: pngBytes, master: true)
                #expect(reply.status == 400, "\(name)")
                #expect(reply.json == invalid, "\(name)")
            }
            let long = try await send(client, .post, "/parse/files/\(String(repeating: "a", count: 129)).png", body: pngBytes, master: true)
            #expect(long.json == ["code": 122, "error": "Filename too long."])
            for name in ["..%2F..%2Fdata.db", "..%2Ffiles%2F.meta", "%2E%2E%2Fkeys.json", "data.db", ".meta", "nul%00"] {
                #expect(try await send(client, .get, "/parse/files/\(testAppId)/\(name)").status == 404, "\(name)")
                #expect(try await send(client, .delete, "/parse/files/\(name)", master: true).status == 400, "\(name)")
            }
            #expect(try await send(client, .get, "/parse/files/other-app/x.png").status == 403)
        }
    }

    /// Windows drops a name's trailing dots and spaces when it saves a download, so `x.html.`
    /// would land as `x.html` although its extension (none) passed the list: refused (122),
    /// whoever uploads, the master key too.
    @Test func namesEndingInADotOrASpaceAreRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let token = try await signUp(client)
            let page = Array("<html><script>alert(document.cookie)</script></html>".utf8)
            let refused: JSON = ["code": 122, "error": "Filename may not end with a dot or a space."]
            for name in ["x.html.", "x.html%20", "x.html..", "x.html.%20", "x.exe%20%20", "notes."] {
                let reply = try await send(client, .post, "/parse/files/\(name)", body: page, headers: ["Content-Type": "text/plain"], session: token)
                #expect(reply.status == 400 && reply.json == refused, "\(name): \(reply.json)")
                #expect(try await send(client, .post, "/parse/files/\(name)", body: page, master: true).json == refused, "\(name)")
            }
            // A space or dot inside the name is still fine.
            let fine = try await send(
                client, .post, "/parse/files/my%20notes.v2.txt", body: Array("hello".utf8), headers: ["Content-Type": "text/plain"], session: token)
            #expect(fine.status == 201, "\(fine.json)")
        }
    }

    /// HTML, SVG and scripts are refused by the default list, by name or by declared type.
    @Test func markupAndScriptsAreRefusedByDefault() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let token = try await signUp(client)
            let page = Array("<html><script>alert(document.cookie)</script></html>".utf8)
            let cases: [(String, String, String)] = [
                ("page.html", "text/html", "html"), ("page.HTM", "text/plain", "HTM"), ("evil.svg", "image/svg+xml", "svg"),
                ("avatar.png", "text/html", "html"), ("avatar", "image/svg+xml", "svg"), ("run.js", "text/plain", "js"),
                ("setup.exe", "application/octet-stream", "exe"), ("doc.xhtml", "application/xhtml+xml", "xhtml"),
            ]
            for (name, type, ext) in cases {
                let reply = try await send(client, .post, "/parse/files/\(name)", body: page, headers: ["Content-Type": type], session: token)
                #expect(reply.json == ["code": 130, "error": .string("File upload of extension \(ext) is disabled.")], "\(name) \(type)")
            }
        }
    }

    /// Allowed by configuration, HTML and SVG are served as attachments with `nosniff` and the
    /// sandbox; a page named `.png` is not served as an image.
    @Test func allowedMarkupIsServedAsAnAttachment() async throws {
        try await withServer(files: { $0.fileExtensions = ["*"] }) { (client: any TestClientProtocol) async throws in
            let token = try await signUp(client)
            let page = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)
            for (name, type, served) in [
                ("page.html", "text/html", "text/html"), ("evil.svg", "image/svg+xml", "image/svg+xml"),
                ("avatar.png", "image/png", "application/octet-stream"), ("clip.mp4", "video/mp4", "application/octet-stream"),
            ] {
                let upload = try await send(client, .post, "/parse/files/\(name)", body: page, headers: ["Content-Type": type], session: token)
                let stored = try #require(upload.json["name"]?.stringValue)
                let reply = try await send(client, .get, try path(try #require(upload.json["url"]?.stringValue)))
                #expect(reply.header("Content-Type") == served, "\(name)")
                #expect(reply.header("Content-Disposition") == "attachment; filename=\"\(name)\"", "\(name)")
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.header("Content-Security-Policy") == "default-src 'none'; sandbox")
                #expect(stored.hasSuffix("_" + name))
            }
        }
    }

    /// Over `maxUploadSize`: a declared length is 413 before any of the body is read; an
    /// undeclared (chunked) body is cut off at the limit; neither leaves a file.
    @Test func oversizedUploadsAre413() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await withServer(in: dir, files: { $0.maxUploadSize = 1000 }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            let text =
                "POST /parse/files/huge.png HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                + "X-Parse-Master-Key: \(testMasterKey)\r\nContent-Type: image/png\r\nContent-Length: 5000000000\r\n\r\n\u{89}PNG"
            let reply = try await blocking {
                let socket = try RawSocket(port: port, timeout: 5)
                socket.send(text)
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(socket.fd, &buffer, buffer.count, 0)
                return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
            }
            #expect(RawSocket.status(reply) == 413, "\(reply)")
            #expect(reply.contains(#"{"code":130,"error":"File size exceeds maximum allowed: 1000 bytes."}"#))
            let chunked = try await blocking {
                let socket = try RawSocket(port: port, timeout: 5)
                let chunk = String(repeating: "x", count: 600)
                socket.send(
                    "POST /parse/files/big.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                        + "X-Parse-Master-Key: \(testMasterKey)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                        + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
                return socket.receiveUntilClosed().text
            }
            #expect(RawSocket.status(chunked) == 413, "\(chunked)")
            #expect(try await send(client, .post, "/parse/files/ok.txt", body: Array(repeating: 65, count: 1000), master: true).status == 201)
        }
        let stored = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("files").path)
        #expect(stored.filter { !$0.hasPrefix(".") }.map { $0.split(separator: "_").last.map(String.init) ?? "" } == ["ok.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("files/.tmp").path) == [])
    }

    /// A body that stops halfway (the client goes away) stores nothing and leaves no temporary file.
    @Test func bodyThatStopsHalfwayStoresNothing() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let finished = AsyncStream.makeStream(of: Bool.self)
        try await withServer(in: dir, wrapFiles: { WriteObserver(wrapped: $0, finished: finished.continuation) }) {
            (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            try await blocking {
                let socket = try RawSocket(port: port, timeout: 5)
                socket.send(
                    "POST /parse/files/half.png HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                        + "X-Parse-Master-Key: \(testMasterKey)\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n"
                        + String(repeating: "y", count: 50_000))
                shutdown(socket.fd, Int32(SHUT_RDWR))
            }
            var events = finished.stream.makeAsyncIterator()
            #expect(await events.next() == false)
        }
        let files = dir.appendingPathComponent("files").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).sorted() == [".meta", ".tmp"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: files + "/.tmp") == [])
    }
}

/// A file store that reports each write's end (`true`: stored), so a test waits for the server
/// to finish with a body instead of sleeping.
struct WriteObserver: FileStore {
    let wrapped: any FileStore
    let finished: AsyncStream<Bool>.Continuation

    func write(_ name: String, contentType: String, createdAt: ParseDate, maxSize: Int64, from chunks: ByteChunks) async throws -> StoredFileInfo {
        do {
            let info = try await wrapped.write(name, contentType: contentType, createdAt: createdAt, maxSize: maxSize, from: chunks)
            finished.yield(true)
            return info
        } catch {
            finished.yield(false)
            throw error
        }
    }
    func info(_ name: String) async throws -> StoredFileInfo? { try await wrapped.info(name) }
    func read(_ name: String, range: ClosedRange<Int64>?, into consume: ([UInt8]) async throws -> Void) async throws -> Bool {
        try await wrapped.read(name, range: range, into: consume)
    }
    func delete(_ name: String) async throws -> Bool { try await wrapped.delete(name) }
    func list() async throws -> [String] { try await wrapped.list() }
}
