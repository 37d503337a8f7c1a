import Foundation
import RooftopSQLite
import RooftopStorage
import RooftopTesting
import Testing

@Suite struct SQLiteConformanceTests {
    /// Each check gets its own database file in a fresh temporary directory.
    @Test func conformance() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var n = 0
        try await DataStoreConformance.runAll {
            n += 1
            return try SQLiteStore(path: dir.appendingPathComponent("db\(n).sqlite").path)
        }
    }
}
