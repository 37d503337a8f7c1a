import HTTPTypes
import Logging
import NIOHTTP1
import Synchronization
import Testing

@testable import RooftopHTTP

/// What the one error renderer logs: a client's broken request is not a fault of the server's.
@Suite struct ErrorRendererTests {
    @Test func aClientHangingUpMidBodyIsAClientErrorLoggedAtInfo() {
        let log = CapturedLog()
        let failure = ErrorRenderer.failure(HTTPParserError.invalidEOFState, logger: log.logger)
        #expect(failure.status == .badRequest)
        #expect(failure.code == 107)
        #expect(log.levels == [.info])
    }

    @Test func anUnknownFailureIsAnInternalErrorLoggedAtError() {
        struct Surprise: Error {}
        let log = CapturedLog()
        let failure = ErrorRenderer.failure(Surprise(), logger: log.logger)
        #expect(failure.status == .internalServerError)
        #expect(failure.code == 1)
        #expect(log.levels == [.error])
    }
}

/// A logger that keeps the level and message of every entry.
final class CapturedLog: Sendable {
    let entries = Mutex<[(level: Logger.Level, message: String)]>([])
    var levels: [Logger.Level] { entries.withLock { $0.map(\.level) } }
    var messages: [String] { entries.withLock { $0.map(\.message) } }
    /// Each entry's metadata, as text.
    let metadata = Mutex<[String: [String: String]]>([:])
    var logger: Logger {
        Logger(label: "test") { _ in Handler(sink: self) }
    }

    struct Handler: LogHandler {
        let sink: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            sink.entries.withLock { $0.append((event.level, "\(event.message)")) }
            let values = self.metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            sink.metadata.withLock { $0["\(event.message)"] = values }
        }
    }
}
