import Foundation
import Rooftop
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real TCP server on 127.0.0.1 that answers every connection the same broken way, counting
/// connections and keeping the last request's head.
final class MisbehavingServer: @unchecked Sendable {
    enum Behaviour {
        case answer(String)
        case dropConnection
        case silent
    }

    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var connections = 0
    private var lastHead = ""
    private var open: [Int32] = []

    init(_ behaviour: Behaviour) throws {
        (fd, port) = try Loopback.boundSocket(listening: true)
        let thread = Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = recv(client, &buffer, buffer.count, 0)
                lock.withLock {
                    connections += 1
                    lastHead = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
                }
                switch behaviour {
                case .answer(let text):
                    _ = text.utf8CString.withUnsafeBufferPointer { send(client, $0.baseAddress, $0.count - 1, 0) }
                    close(client)
                case .dropConnection:
                    close(client)
                case .silent:
                    lock.withLock { open.append(client) }
                }
            }
        }
        thread.start()
    }

    var connectionCount: Int { lock.withLock { connections } }
    var lastRequest: String { lock.withLock { lastHead } }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        lock.withLock { open.forEach { close($0) } }
    }

    static func response(status: String, type: String, body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }
}

/// The transport's edge cases against real sockets: malformed answers, non-Parse errors,
/// dropped connections (reads retried, writes not), timeouts, and the headers sent.
extension SDKTests {
    @Suite struct TransportTests {
        func initialize(_ server: MisbehavingServer, storage: URL, timeout: TimeInterval = 5) {
            var configuration = RTConfiguration(applicationId: "edge-app", clientKey: "edge-key", server: "http://127.0.0.1:\(server.port)/parse")
            configuration.storageDirectory = storage
            configuration.requestTimeout = timeout
            Rooftop.initialize(with: configuration)
        }

        func storage() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-edge-\(UUID().uuidString)") }

        @Test func malformedAnswersAreInvalidJSON() async throws {
            let server = try MisbehavingServer(
                .answer(MisbehavingServer.response(status: "200 OK", type: "application/json", body: "{\"results\": [")))
            defer { server.stop() }
            let dir = storage()
            defer { try? FileManager.default.removeItem(at: dir) }
            initialize(server, storage: dir)
            await #expect { try await RTQuery(className: "Note").findObjects() } throws: { ($0 as? RTError)?.code == .invalidJSON }
            // The Parse headers, and the installation id kept in the storage directory.
            let head = server.lastRequest.lowercased()
            let installation = try String(contentsOf: dir.appendingPathComponent("installationId"), encoding: .utf8)
            #expect(head.hasPrefix("get /parse/classes/note?where=%7b%7d "))
            #expect(head.contains("x-parse-application-id: edge-app") && head.contains("x-parse-client-key: edge-key"))
            #expect(head.contains("x-parse-installation-id: \(installation)") && head.contains("x-parse-client-version: swift\(Rooftop.version)"))
        }

        @Test func nonParseErrorsKeepTheStatus() async throws {
            let page = MisbehavingServer.response(status: "502 Bad Gateway", type: "text/html", body: "<html>bad gateway</html>")
            let server = try MisbehavingServer(.answer(page))
            defer { server.stop() }
            let dir = storage()
            defer { try? FileManager.default.removeItem(at: dir) }
            initialize(server, storage: dir)
            let error = await #expect(throws: RTError.self) { try await RTUser.logIn(username: "a", password: "b") }
            #expect(error?.code == .otherCause && error?.message.contains("HTTP 502") == true)
        }

        @Test func readsAreRetriedWritesAreNot() async throws {
            let server = try MisbehavingServer(.dropConnection)
            defer { server.stop() }
            let dir = storage()
            defer { try? FileManager.default.removeItem(at: dir) }
            initialize(server, storage: dir)
            await #expect { try await RTQuery(className: "Note").findObjects() } throws: { ($0 as? RTError)?.code == .connectionFailed }
            #expect(server.connectionCount == 3)  // the first try and two retries
            let note = RTObject(className: "Note")
            note["text"] = "once"
            await #expect { try await note.save() } throws: { ($0 as? RTError)?.code == .connectionFailed }
            #expect(server.connectionCount == 4)  // a create is never sent twice
            #expect(note.objectId == nil && note["text"] as? String == "once" && note.isDirty)
        }

        @Test func silentServerTimesOut() async throws {
            let server = try MisbehavingServer(.silent)
            defer { server.stop() }
            let dir = storage()
            defer { try? FileManager.default.removeItem(at: dir) }
            initialize(server, storage: dir, timeout: 1)
            let started = ContinuousClock.now
            let error = await #expect(throws: RTError.self) { try await RTUser.become("r:anything") }
            #expect(error?.code == .timeout)
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
