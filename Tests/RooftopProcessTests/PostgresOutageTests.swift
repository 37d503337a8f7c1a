import Foundation
import RooftopCore
import RooftopHTTP
import RooftopTesting
import Testing

/// PostgreSQL going away while a node serves: requests that need it fail with Parse's 500/1
/// instead of hanging, nothing acknowledged is lost, and the node recovers without a restart.
@Suite(.serialized) struct PostgresOutageTests {
    @Test func outageAnswers500AndRecovers() async throws {
        let cluster = try await ClusterNodes.start(count: 1, timeout: .seconds(3))
        do {
            let name = try #require(URLComponents(string: cluster.databaseURL)?.path.dropFirst()).description
            let (status, saved) = try await cluster.call(0, "POST", "/classes/Note", body: #"{"text":"kept"}"#, master: true)
            #expect(status == 201)
            // Refuse new connections to the database and end the existing ones.
            try await TestStores.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
            try await TestStores.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            let start = ContinuousClock.now
            let (down, error) = try await cluster.call(0, "GET", "/classes/Note", master: true)
            let waited = ContinuousClock.now - start
            #expect(down == 500 && error["code"] == 1, "\(down) \(error)")
            #expect(waited < .seconds(15), "a request waited \(waited) for the database")
            // Back: the same node serves again, with what it acknowledged before.
            try await TestStores.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
            try await waitUntil(.seconds(10)) { try await cluster.call(0, "GET", "/classes/Note", master: true).0 == 200 }
            let (_, notes) = try await cluster.call(0, "GET", "/classes/Note", master: true)
            #expect(notes["results"]?.arrayValue?.first?["objectId"] == saved["objectId"])
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
