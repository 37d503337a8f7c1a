import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that hold a connection without finishing a request are closed after the idle
/// timeout (1 s here); a declared body over `maxBodySize` is refused before it is read.
@Suite struct SlowClientTests: LiveServerTest {
    /// Whether the server closes a connection that got `text` (and then nothing) well before
    /// the 10 s receive deadline; the bytes it answered meanwhile.
    func closes(port: Int, after text: String) async throws -> (closed: Bool, reply: String, seconds: Double) {
        try await blocking {
            let socket = try RawSocket(port: port, timeout: 10)
            let start = Date()
            if !text.isEmpty { socket.send(text) }
            let (reply, closed) = socket.receiveUntilClosed()
            return (closed, reply, Date().timeIntervalSince(start))
        }
    }

    @Test func slowConnectionsAreClosed() async throws {
        try await withServer(configure: { _, http in http.idleTimeout = .seconds(1) }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            let head = "POST /parse/classes/T HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
            let cases = [
                "nothing": "",
                "partial headers": "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                "partial request line": "GET /parse/hea",
                "declared body never sent": head + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n",
                "half a body": head + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":",
                "chunked body never ended": head + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n",
            ]
            for (name, text) in cases {
                let result = try await closes(port: port, after: text)
                #expect(result.closed, "\(name) still open")
                #expect(result.seconds < 8, "\(name): \(result.seconds) s")
                #expect(!result.reply.contains("200 OK") && !result.reply.contains("201 Created"), "\(name): \(result.reply)")
            }
            // A head sent a byte at a time never counts as progress.
            let drip = try await blocking {
                let socket = try RawSocket(port: port, timeout: 10)
                let start = Date()
                for byte in "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long-Header: aaaaaaaaaaaaaaaa" {
                    socket.send(String(byte))
                    Thread.sleep(forTimeInterval: 0.1)
                    if Date().timeIntervalSince(start) > 6 { break }
                }
                return (socket.receiveUntilClosed().closed, Date().timeIntervalSince(start))
            }
            #expect(drip.0 && drip.1 < 9)
            // A kept-alive connection that keeps working is not closed by the timer.
            let health = "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let kept = try await blocking {
                let socket = try RawSocket(port: port, timeout: 10)
                var answered = 0
                var buffer = [UInt8](repeating: 0, count: 4096)
                for _ in 0..<4 {
                    socket.send(health)
                    if recv(socket.fd, &buffer, buffer.count, 0) > 0 { answered += 1 }
                    Thread.sleep(forTimeInterval: 0.6)
                }
                return answered
            }
            #expect(kept == 4)
        }
    }

    /// Sends `text` a byte every `interval` seconds until the server closes the connection or
    /// everything is sent; whether it was closed before the end, and after how long.
    func dribble(port: Int, _ text: String, interval: Double) async throws -> (closedEarly: Bool, seconds: Double) {
        try await blocking {
            let socket = try RawSocket(port: port, timeout: 10)
            let start = Date()
            for byte in text.utf8 {
                // A closed peer shows as a failed send (EPIPE; SIGPIPE is off for RawSocket).
                var one = byte
                if Glibc.send(socket.fd, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { return (true, Date().timeIntervalSince(start)) }
                Thread.sleep(forTimeInterval: interval)
            }
            return (false, Date().timeIntervalSince(start))
        }
    }

    /// Progress, one byte at a time, keeps the idle timer quiet; the head and body deadlines
    /// close such connections anyway, while a connection resting between requests is kept.
    @Test func headAndBodyHaveDeadlines() async throws {
        try await withServer(configure: { _, http in
            http.idleTimeout = .seconds(30)
            http.headerTimeout = .seconds(1)
            http.bodyTimeout = .seconds(1)
        }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            // A head of 40 bytes at 0.1 s each: 4 s, well past the 1 s header deadline.
            let head = try await dribble(port: port, "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: bbbbbbbb", interval: 0.1)
            #expect(head.closedEarly, "a head dribbled over 4 s was not cut off")
            #expect(head.seconds < 3.5)
            // A body of 40 bytes at 0.1 s each after a complete head: the body deadline.
            let body = try await blocking {
                let socket = try RawSocket(port: port, timeout: 10)
                socket.send(
                    "POST /parse/classes/T HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n")
                return socket
            }
            let sent = try await blocking { () -> (Bool, Double) in
                let start = Date()
                for byte in #"{"a":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#.utf8 {
                    var one = byte
                    if Glibc.send(body.fd, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { return (true, Date().timeIntervalSince(start)) }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return (false, Date().timeIntervalSince(start))
            }
            #expect(sent.0, "a body trickled over 4 s was not cut off")
            #expect(sent.1 < 3.5)
            // Nothing was created by the cut-off request.
            let found = try await call(client, .get, "/parse/classes/T", master: true)
            #expect(found.json["results"]?.arrayValue?.isEmpty == true)
            // Resting 2 s between requests (past both deadlines, within the idle timeout) is fine:
            // the header clock starts at a request's first byte, not when the last one ended.
            let rested = try await blocking {
                let socket = try RawSocket(port: port, timeout: 10)
                var answered = 0
                var buffer = [UInt8](repeating: 0, count: 4096)
                for _ in 0..<2 {
                    socket.send("GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    if recv(socket.fd, &buffer, buffer.count, 0) > 0 { answered += 1 }
                    Thread.sleep(forTimeInterval: 2)
                }
                return answered
            }
            #expect(rested == 2)
            // An answer that ends before its request (an upload with a wrong application id, refused
            // before its body is read; the body drained afterwards) leaves the next head under the deadline.
            let early = try await blocking { () -> (String, Bool, Double) in
                let socket = try RawSocket(port: port, timeout: 10)
                socket.send(
                    "POST /parse/files/a.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: not-this-app\r\n"
                        + "Content-Type: text/plain\r\nContent-Length: 20\r\n\r\n")
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(socket.fd, &buffer, buffer.count, 0)
                let answer = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
                socket.send(#"{"a":"xxxxxxxxxxxx"}"#)
                let start = Date()
                for byte in "GET /parse/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: bbbbbbbb".utf8 {
                    var one = byte
                    if Glibc.send(socket.fd, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { return (answer, true, Date().timeIntervalSince(start)) }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return (answer, false, Date().timeIntervalSince(start))
            }
            #expect(RawSocket.status(early.0) == 403, "\(early.0)")
            #expect(early.1, "the head after an early answer was not cut off")
            #expect(early.2 < 3.5)
        }
    }

    @Test func declaredHugeBodyIs413AtOnce() async throws {
        // A long idle timeout: the answer must not wait for it.
        try await withServer(configure: { _, http in http.idleTimeout = .seconds(30) }) { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            for path in ["/parse/classes/T", "/parse/users", "/parse/login", "/parse/batch"] {
                let text =
                    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 5000000000\r\n\r\n{"
                let reply = try await blocking {
                    let socket = try RawSocket(port: port, timeout: 5)
                    let start = Date()
                    socket.send(text)
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let n = recv(socket.fd, &buffer, buffer.count, 0)
                    return (n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : "", Date().timeIntervalSince(start))
                }
                #expect(RawSocket.status(reply.0) == 413, "\(path): \(reply.0)")
                #expect(reply.0.contains(#""code":116"#))
                #expect(reply.1 < 3)
            }
            // Lengths that are not numbers are refused too, never read as small.
            for length in ["99999999999999999999999999", "-1", "1e9", "0x10"] {
                let text =
                    "POST /parse/classes/T HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n{}"
                let reply = try await blocking {
                    let socket = try RawSocket(port: port, timeout: 5)
                    socket.send(text)
                    return socket.receiveUntilClosed().text
                }
                #expect(![200, 201].contains(RawSocket.status(reply)), "\(length): \(reply)")
            }
            // Within the limit, a declared body is read as before.
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"a":1}"#).status == 201)
        }
    }
}
