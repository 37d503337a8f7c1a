import Foundation
import Hummingbird
import Logging
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// PostgreSQL stopped while a node serves (its port refuses connections, open connections
/// drop): each request answers Parse's 500 within about a second instead of waiting for the
/// statement deadline, and the node serves again as soon as the database is back.
@Suite(.serialized) struct PostgresRefusalTests {
    @Test func refusedConnectionsAnswer500PromptlyAndRecover() async throws {
        let direct = try await TestStores.freshPostgresDatabase()
        var components = try #require(URLComponents(string: direct))
        let target = try #require(components.port)
        // The node reaches the database through a proxy this test stops and starts: the shared
        // test server keeps running for everyone else.
        let proxy = try PortProxy(listen: 0, target: target)
        components.port = proxy.port
        let node = try await RefusalNode.start(url: try #require(components.string))
        do {
            let (created, saved) = try await node.call("POST", "/classes/Note", body: #"{"text":"kept"}"#)
            #expect(created == 201)
            proxy.stop()
            // A pooled connection dropped, then none to be had: each fails fast.
            for (method, body) in [("GET", nil), ("GET", nil), ("POST", #"{"text":"lost"}"#), ("GET", nil)] {
                let start = ContinuousClock.now
                let (status, error) = try await node.call(method, "/classes/Note", body: body)
                let waited = ContinuousClock.now - start
                #expect(status == 500 && error["code"] == 1, "\(method): \(status) \(error)")
                #expect(waited < .seconds(2), "\(method) waited \(waited) for a refusing database")
            }
            let back = try PortProxy(listen: proxy.port, target: target)
            defer { back.stop() }
            let start = ContinuousClock.now
            let (status, notes) = try await node.call("GET", "/classes/Note")
            #expect(status == 200, "\(notes)")
            #expect(ContinuousClock.now - start < .seconds(3), "the node took \(ContinuousClock.now - start) to serve again")
            #expect(notes["results"]?.arrayValue?.map { $0["objectId"] } == [saved["objectId"]])
            // And keeps serving, writes included, once the pool has reconnected.
            try await waitUntil(.seconds(10)) { try await node.call("POST", "/classes/Note", body: #"{"text":"after"}"#).0 == 201 }
        } catch {
            await node.stop()
            proxy.stop()
            throw error
        }
        await node.stop()
        proxy.stop()
    }
}

/// One node on a PostgreSQL URL, with a statement deadline (10 s) far above what a refused
/// connection may cost.
private struct RefusalNode {
    let port: Int
    let tasks: [Task<Void, any Error>]

    static func start(url: String) async throws -> RefusalNode {
        let (store, storeTask) = try await TestStores.postgres(url: url, timeout: .seconds(10))
        let (port, appTask) = try await ClusterNodes.serve(store)
        return RefusalNode(port: port, tasks: [appTask, storeTask])
    }

    func stop() async {
        tasks[0].cancel()
        _ = try? await tasks[0].value
        tasks[1].cancel()
    }

    func call(_ method: String, _ path: String, body: String? = nil) async throws -> (Int, JSON) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/parse\(path)")))
        request.httpMethod = method
        request.timeoutInterval = 30
        request.setValue(testAppId, forHTTPHeaderField: "X-Parse-Application-Id")
        request.setValue(testMasterKey, forHTTPHeaderField: "X-Parse-Master-Key")
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.isEmpty ? .null : try JSONParser.parse(data))
    }
}

/// A TCP proxy in a child process: stopping it (SIGKILL to that process only) drops every
/// connection and leaves the port refusing, as a stopped PostgreSQL does; a new one on the same
/// port is the server back.
private final class PortProxy {
    let port: Int
    private let process: Process

    private static let script = """
        asyncio, sys = __import__("asyncio"), __import__("sys")
        listen, target = int(sys.argv[1]), int(sys.argv[2])
        async def pipe(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except Exception:
                pass
            finally:
                writer.close()
        async def handle(client_reader, client_writer):
            try:
                server_reader, server_writer = await asyncio.open_connection('127.0.0.1', target)
            except Exception:
                client_writer.close()
                return
            await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        async def main():
            server = await asyncio.start_server(handle, '127.0.0.1', listen, reuse_address=True)
            print(server.sockets[0].getsockname()[1], flush=True)
            await server.serve_forever()
        asyncio.run(main())
        """

    init(listen: Int, target: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, String(listen), String(target)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestProxyError()
        }
        self.port = port
        self.process = process
    }

    /// SIGKILL: the test process ignores SIGTERM (its service group handles it), and a child
    /// inherits ignored signals.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

private struct TestProxyError: Error {}
