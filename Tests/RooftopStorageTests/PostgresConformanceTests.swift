import Foundation
import RooftopCore
import RooftopPostgres
import RooftopStorage
import RooftopTesting
import Testing

@Suite struct PostgresConformanceTests {
    /// The suite SQLite passes, each check on a database of its own.
    @Test func conformance() async throws {
        var tasks: [Task<Void, any Error>] = []
        defer { tasks.forEach { $0.cancel() } }
        try await DataStoreConformance.runAll {
            let (store, task) = try await TestStores.postgres()
            tasks.append(task)
            return store
        }
    }
}
