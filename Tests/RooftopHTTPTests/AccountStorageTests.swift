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
import Synchronization
import Testing

/// A real SQLite store that counts the `_Session` reads going through it.
final class CountingStore: DataStore {
    let inner: SQLiteStore
    let sessionReads = Atomic<Int>(0)

    init(_ inner: SQLiteStore) { self.inner = inner }

    func schema(_ className: ClassName) async throws -> ClassSchema? { try await inner.schema(className) }
    func allSchemas() async throws -> [ClassSchema] { try await inner.allSchemas() }
    func alterSchema(_ className: ClassName, _ change: @escaping @Sendable (ClassSchema?) throws -> ClassSchema) async throws -> ClassSchema {
        try await inner.alterSchema(className, change)
    }
    func deleteClass(_ className: ClassName) async throws { try await inner.deleteClass(className) }
    func find(_ request: FindRequest) async throws -> [StoredObject] {
        if request.className == .session { sessionReads.add(1, ordering: .relaxed) }
        return try await inner.find(request)
    }
    func count(_ request: FindRequest) async throws -> Int { try await inner.count(request) }
    func write(_ operations: [WriteOperation]) async throws -> [WriteOutcome] { try await inner.write(operations) }
}

@Suite struct AccountStorageTests {
    /// Runs `body` against a live server, closes the database, and returns `body`'s result;
    /// the caller removes `dir`.
    func withApp<T: Sendable>(in dir: URL, _ body: @escaping @Sendable (any TestClientProtocol, CountingStore) async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sqlite = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        let store = CountingStore(sqlite)
        var logger = Logger(label: "acct")
        logger.logLevel = .critical
        let app = buildApplication(
            store: store, services: ServicesConfiguration(), http: HTTPConfiguration(appId: testAppId, masterKey: testMasterKey),
            host: "127.0.0.1", port: 0, logger: logger, passwords: BcryptPasswordHasher(cost: 4), tokens: SessionTokens())
        let result = try await app.test(.live) { client in try await body(client, store) }
        try sqlite.close()
        return result
    }

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-acct-\(UUID().uuidString)")
    }

    func post(_ client: any TestClientProtocol, _ uri: String, _ body: String, token: String? = nil) async throws -> JSON {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Parse-Application-Id")!] = testAppId
        if let token { headers[HTTPField.Name("X-Parse-Session-Token")!] = token }
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            try JSONParser.parse(Array(response.body.readableBytesView))
        }
    }

    /// The database file holds neither a session token nor a password in plain text.
    @Test func noSecretsInTheDatabaseFile() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try await withApp(in: dir) { client, _ in
            let reply = try await post(client, "/parse/users", #"{"username":"ana","password":"pl41n-t3xt-secret"}"#)
            _ = try await post(client, "/parse/login", #"{"username":"ana","password":"pl41n-t3xt-secret"}"#)
            return try #require(reply["sessionToken"]?.stringValue)
        }
        var bytes = Data()
        for name in ["data.db", "data.db-wal"] {
            if let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) { bytes.append(data) }
        }
        #expect(bytes.count > 0)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("pl41n-t3xt-secret"))
        #expect(!text.contains(token))
        #expect(!text.contains(String(token.dropFirst(2))))
        #expect(text.contains("$2b$04$"))  // the bcrypt hash is what is stored
    }

    /// A warm session check costs no database read.
    @Test func warmSessionChecksDoNotReadTheDatabase() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await withApp(in: dir) { client, store in
            let reply = try await post(client, "/parse/users", #"{"username":"ana","password":"correct horse"}"#)
            let token = try #require(reply["sessionToken"]?.stringValue)
            _ = try await post(client, "/parse/classes/Note", #"{"_method":"GET"}"#, token: token)
            let afterFirst = store.sessionReads.load(ordering: .relaxed)
            #expect(afterFirst == 1)
            for _ in 0..<5 { _ = try await post(client, "/parse/classes/Note", #"{"_method":"GET"}"#, token: token) }
            #expect(store.sessionReads.load(ordering: .relaxed) == afterFirst)
        }
    }
}
