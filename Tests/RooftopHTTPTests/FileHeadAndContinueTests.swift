import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// `HEAD` on a file, and `Expect: 100-continue` on uploads and JSON bodies.
@Suite struct FileHeadAndContinueTests: LiveServerTest {
    let files = FileRoutesTests()

    /// `HEAD` has every header `GET` has (its length, type, validators, safety headers), no
    /// body; a missing file is 404 without a body; ranges and conditions apply as to `GET`.
    @Test func headHasTheHeadersOfGet() async throws {
        try await withServer(files: { $0.fileExtensions = ["*"] }) { (client: any TestClientProtocol) async throws in
            for (name, type, bytes) in [("avatar.png", "image/png", pngBytes), ("notes.txt", "text/plain", Array("hello".utf8))] {
                let upload = try await files.send(client, .post, "/parse/files/\(name)", body: bytes, headers: ["Content-Type": type], master: true)
                let path = try files.path(try #require(upload.json["url"]?.stringValue))
                let get = try await files.send(client, .get, path)
                let head = try await files.send(client, .head, path)
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                for header in [
                    "Content-Length", "Content-Type", "ETag", "Last-Modified", "Accept-Ranges", "Cache-Control", "X-Content-Type-Options",
                    "Content-Security-Policy", "Content-Disposition",
                ] {
                    #expect(head.header(header) == get.header(header), "\(name) \(header)")
                }
                #expect(head.header("Content-Length") == String(bytes.count))
                let etag = try #require(get.header("ETag"))
                #expect(try await files.send(client, .head, path, headers: ["If-None-Match": etag]).status == 304)
                let part = try await files.send(client, .head, path, headers: ["Range": "bytes=0-1"])
                #expect(part.status == 206)
                #expect(part.header("Content-Length") == "2")
                #expect(part.body.isEmpty)
            }
            let missing = try await files.send(client, .head, "/parse/files/\(testAppId)/0123456789abcdef0123456789abcdef_gone.png")
            #expect(missing.status == 404)
            #expect(missing.body.isEmpty)
            // HEAD answers file downloads only: anywhere else it is an unknown route (107), without a body.
            let elsewhere = try await files.send(client, .head, "/parse/classes/Note", master: true)
            #expect(elsewhere.status == 400)
            #expect(elsewhere.body.isEmpty)
        }
    }

    /// What the server sends first to a request that waits for `100 Continue`: the interim
    /// answer when it is acceptable (and then, once the body came, the final one); the final
    /// refusal at once when it is not.
    func firstReplies(_ port: Int, head: String, body: String) async throws -> (first: String, final: String) {
        try await blocking {
            let socket = try RawSocket(port: port, timeout: 5)
            socket.send(head)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(socket.fd, &buffer, buffer.count, 0)
            let first = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
            guard RawSocket.status(first) == 100 else { return (first, first) }
            socket.send(body)
            return (first, socket.receiveUntilClosed().text)
        }
    }

    /// An acceptable upload (and a JSON body) gets `100 Continue` before its body is sent; a
    /// declared length over the limit, a caller who may not upload and a wrong key get their
    /// refusal at once, without it.
    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        try await withServer(files: { $0.maxUploadSize = 1000 }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            let keys = "X-Parse-Application-Id: \(testAppId)\r\nX-Parse-Master-Key: \(testMasterKey)\r\n"
            let upload = { (length: Int, keys: String) in
                "POST /parse/files/a.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\(keys)Content-Type: text/plain\r\nContent-Length: \(length)\r\n"
                    + "Expect: 100-continue\r\nConnection: close\r\n\r\n"
            }
            let accepted = try await firstReplies(port, head: upload(500, keys), body: String(repeating: "x", count: 500))
            #expect(accepted.first.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(accepted.first)")
            #expect(accepted.final.contains("HTTP/1.1 201"), "\(accepted.final)")

            let tooLarge = try await firstReplies(port, head: upload(5000, keys), body: "")
            #expect(RawSocket.status(tooLarge.first) == 413, "\(tooLarge.first)")
            let publicUpload = try await firstReplies(port, head: upload(500, "X-Parse-Application-Id: \(testAppId)\r\n"), body: "")
            #expect(RawSocket.status(publicUpload.first) == 400, "\(publicUpload.first)")
            #expect(publicUpload.first.contains("File upload by public is disabled."))
            let wrongKey = try await firstReplies(port, head: upload(500, "X-Parse-Application-Id: other\r\n"), body: "")
            #expect(RawSocket.status(wrongKey.first) == 403, "\(wrongKey.first)")

            let json = #"{"title":"\#(String(repeating: "t", count: 2000))"}"#
            let create = try await firstReplies(
                port,
                head: "POST /parse/classes/Note HTTP/1.1\r\nHost: 127.0.0.1\r\n\(keys)Content-Type: application/json\r\n"
                    + "Content-Length: \(json.utf8.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n", body: json)
            #expect(create.first.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(create.first)")
            #expect(create.final.contains("HTTP/1.1 201"), "\(create.final)")
        }
    }
}
