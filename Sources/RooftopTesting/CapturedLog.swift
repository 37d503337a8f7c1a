package import Logging
package import Synchronization

/// A logger that keeps the level and message of every entry.
package final class CapturedLog: Sendable {
    /// An empty log.
    package init() {}

    /// Every entry, in order.
    package let entries = Mutex<[(level: Logger.Level, message: String)]>([])
    /// The entries' levels.
    package var levels: [Logger.Level] { entries.withLock { $0.map(\.level) } }
    /// The entries' messages.
    package var messages: [String] { entries.withLock { $0.map(\.message) } }
    /// Each entry's metadata, as text.
    package let metadata = Mutex<[String: [String: String]]>([:])
    /// A logger whose entries land here.
    package var logger: Logger {
        Logger(label: "test") { _ in Handler(sink: self) }
    }

    /// The handler that keeps them.
    package struct Handler: LogHandler {
        let sink: CapturedLog
        /// The logger's own metadata.
        package var metadata: Logger.Metadata = [:]
        /// Every level.
        package var logLevel: Logger.Level = .trace
        /// One metadata value.
        package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        /// Keeps `event`.
        package func log(event: LogEvent) {
            sink.entries.withLock { $0.append((event.level, "\(event.message)")) }
            let values = self.metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            sink.metadata.withLock { $0["\(event.message)"] = values }
        }
    }
}
