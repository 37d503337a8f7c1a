import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopStorage
import RooftopTesting
import Testing

@Suite struct FaultTests: LiveServerTest {
    /// Reads fail as on a broken disk: the client gets a plain Parse error, no SQL, and the
    /// server keeps serving.
    @Test func storageFailureIsAPlainParseError() async throws {
        let failing: @Sendable (FindRequest) throws -> Void = { _ in
            throw StorageError.unavailable("SQLite error 10: disk I/O error - while executing `SELECT secret FROM Note`")
        }
        try await withServer(wrap: { ObservedStore(inner: $0, beforeFind: failing) }) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"a":1}"#).status == 201)
            let reply = try await call(client, .get, "/parse/classes/Note")
            #expect(reply.status == 500)
            #expect(reply.json == ["code": 1, "error": "Internal server error."])
            #expect(try await call(client, .get, "/parse/health").status == 200)
        }
    }
}
