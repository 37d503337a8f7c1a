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

/// TLS to the database when the URL asks for it (the test server has a self-signed certificate).
@Suite struct PostgresTLSTests {
    @Test func sslmodeRequireEncryptsAndVerifyFullChecksTheCertificate() async throws {
        let plain = try await TestStores.freshPostgresDatabase()
        let name = try #require(URLComponents(string: plain)?.path.dropFirst()).description
        let encrypted = plain.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let (_, task) = try await TestStores.postgres(url: encrypted)
        defer { task.cancel() }
        let tls = try await TestStores.integer(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(name)' AND s.ssl")
        #expect(tls >= 1)
        let clear = try await TestStores.integer(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(name)' AND NOT s.ssl")
        #expect(clear == 0)
        // A self-signed certificate no trusted authority signed: verify-full refuses it.
        let verified = plain.replacingOccurrences(of: "sslmode=disable", with: "sslmode=verify-full")
        await #expect {
            _ = try await TestStores.postgres(url: verified)
        } throws: { error in
            "\(error)".contains("CERTIFICATE_VERIFY_FAILED")
        }
    }
}
