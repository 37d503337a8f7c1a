import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
package import RooftopCore

/// A real HTTP server on loopback that webhooks call: it records each call (path, key header,
/// JSON body) and answers what the test set for that path.
package final class WebhookReceiver: Sendable {
    /// A call the receiver got.
    package struct Call: Sendable {
        /// The path called.
        package let path: String
        /// The `X-Parse-Webhook-Key` header.
        package let key: String?
        /// The JSON body.
        package let body: JSON
    }

    /// An answer: status and JSON text; `delay` holds it back on the receiver's side.
    package struct Answer: Sendable {
        /// The status to answer with.
        package var status: Int = 200
        /// The body to answer with.
        package var body: String
        /// Whether to hang instead of answering.
        package var hang = false
    }

    /// The loopback port it listens on.
    package let port: Int
    private let task: Task<Void, any Error>
    private let state: LockedBox<(calls: [Call], answers: [String: Answer])>

    private init(port: Int, task: Task<Void, any Error>, state: LockedBox<(calls: [Call], answers: [String: Answer])>) {
        self.port = port
        self.task = task
        self.state = state
    }

    /// Starts the receiver on a free loopback port.
    package static func start() async throws -> WebhookReceiver {
        let state = LockedBox((calls: [Call](), answers: [String: Answer]()))
        let router = Router()
        router.post("**") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let path = request.uri.path
            let key = HTTPField.Name("X-Parse-Webhook-Key").flatMap { request.headers[$0] }
            let body = (try? JSONParser.parse(Array(bytes.readableBytesView))) ?? .null
            let answer = state.withLock { state -> Answer in
                state.calls.append(Call(path: path, key: key, body: body))
                return state.answers[path] ?? Answer(body: #"{"success":null}"#)
            }
            if answer.hang { try await Task.sleep(for: .seconds(3600)) }
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let (running, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await bound in running {
            port = bound
            break
        }
        return WebhookReceiver(port: port, task: task, state: state)
    }

    /// The host entry for `webhookHosts`.
    package var host: String { "127.0.0.1:\(port)" }

    /// A URL on this receiver.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Answers `body` (with `status`) to calls to `path`.
    package func answer(_ path: String, _ body: String, status: Int = 200, hang: Bool = false) {
        state.withLock { $0.answers[path] = Answer(status: status, body: body, hang: hang) }
    }

    /// The calls received so far.
    package var calls: [Call] { state.withLock { $0.calls } }

    /// Stops the receiver.
    package func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
