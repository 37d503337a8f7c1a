import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import RooftopAuth
import RooftopCore
import RooftopHTTP
import RooftopSQLite
import RooftopServices
import RooftopStorage
import Testing

/// A real SQLite store whose reads fail on demand, as a broken disk or a locked file would.
struct FailingStore: DataStore {
    let inner: SQLiteStore
    let failReads: Bool

    func schema(_ className: ClassName) async throws -> ClassSchema? { try await inner.schema(className) }
    func allSchemas() async throws -> [ClassSchema] { try await inner.allSchemas() }
    func alterSchema(_ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema) async throws -> ClassSchema {
        try await inner.alterSchema(className, change)
    }
    func deleteClass(_ className: ClassName) async throws { try await inner.deleteClass(className) }
    func find(_ request: FindRequest) async throws -> [StoredObject] {
        if failReads { throw StorageError.unavailable("SQLite error 10: disk I/O error - while executing `SELECT secret FROM Note`") }
        return try await inner.find(request)
    }
    func count(_ request: FindRequest) async throws -> Int { try await inner.count(request) }
    func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] { try await inner.write(operations) }
}

@Suite struct FaultTests {
    @Test func storageFailureIsAPlainParseError() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = FailingStore(inner: try SQLiteStore(path: dir.appendingPathComponent("data.db").path), failReads: true)
        var services = ServicesConfiguration()
        services.allowClientClassCreation = true
        var logger = Logger(label: "fault")
        logger.logLevel = .critical
        let app = buildApplication(
            store: store, services: services, http: HTTPConfiguration(appId: testAppId, masterKey: testMasterKey), host: "127.0.0.1",
            port: 0, logger: logger, passwords: BcryptPasswordHasher(cost: 4), tokens: SessionTokens())
        try await app.test(.live) { client in
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Parse-Application-Id")!] = testAppId
            let created = try await client.execute(uri: "/parse/classes/Note", method: .post, headers: headers, body: ByteBuffer(string: #"{"a":1}"#))
            {
                $0.status
            }
            #expect(created == .created)
            try await client.execute(uri: "/parse/classes/Note", method: .get, headers: headers) { response in
                #expect(response.status == .internalServerError)
                let body = try JSONParser.parse(Array(response.body.readableBytesView))
                #expect(body == ["code": 1, "error": "Internal server error."])
            }
            // The server keeps serving.
            try await client.execute(uri: "/parse/health", method: .get, headers: headers) { #expect($0.status == .ok) }
        }
    }
}
