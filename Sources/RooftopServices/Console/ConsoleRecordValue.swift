import Foundation

/// A value the console keeps as one console record (an admin, an admin session). Stored as JSON
/// with sorted keys, so the same value is always the same text: a conditional replace compares
/// the text it read.
protocol ConsoleRecordValue: Codable {}

extension ConsoleRecordValue {
    /// The value as a record's text.
    func recordText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The value a record's text holds.
    init(recordText text: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    }
}
