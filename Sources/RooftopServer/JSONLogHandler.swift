import Foundation
package import Logging
import RooftopCore

/// Log events as JSON lines on standard error (`logFormat: json`), for log collectors that read
/// fields rather than text: `{"time":…,"level":…,"label":…,"message":…,"source":…,"metadata":{…}}`.
package struct JSONLogHandler: LogHandler {
    /// The logger's label.
    package let label: String
    /// The least severe level written.
    package var logLevel: Logger.Level = .info
    /// Metadata on every event of this logger.
    package var metadata: Logger.Metadata = [:]

    /// A handler for `label`.
    package init(label: String) { self.label = label }

    /// Metadata by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one event as one line (a single `write`, so lines from several threads never mix).
    package func log(event: LogEvent) {
        var fields: [String: JSON] = [
            "time": .string(Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))),
            "level": .string(event.level.rawValue), "label": .string(label), "message": .string(event.message.description),
            "source": .string(event.source),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty { fields["metadata"] = Self.json(.dictionary(merged)) }
        var line = JSONWriter.bytes(.object(fields), sortedKeys: true)
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(Data(line))
    }

    /// swift-log's metadata as JSON.
    static func json(_ value: Logger.Metadata.Value) -> JSON {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let value): .string(value.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members): .object(members.mapValues(json))
        }
    }
}
