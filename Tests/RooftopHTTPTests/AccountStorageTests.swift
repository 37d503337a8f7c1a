import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopStorage
import RooftopTesting
import Synchronization
import Testing

@Suite struct AccountStorageTests: LiveServerTest {
    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    /// The database file holds neither a session token nor a password in plain text.
    @Test func noSecretsInTheDatabaseFile() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = Mutex("")
        try await withServer(in: dir) { (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"pl41n-t3xt-secret"}"#)
            _ = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"pl41n-t3xt-secret"}"#)
            let value = try #require(reply.json["sessionToken"]?.stringValue)
            token.withLock { $0 = value }
        }
        let sessionToken = token.withLock { $0 }
        var bytes = Data()
        for name in ["data.db", "data.db-wal"] {
            if let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) { bytes.append(data) }
        }
        #expect(bytes.count > 0)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("pl41n-t3xt-secret"))
        #expect(!text.contains(sessionToken))
        #expect(!text.contains(String(sessionToken.dropFirst(2))))
        #expect(text.contains("$2b$04$"))  // the bcrypt hash is what is stored
    }

    /// A warm session check costs no database read.
    @Test func warmSessionChecksDoNotReadTheDatabase() async throws {
        let sessionReads = Atomic<Int>(0)
        let counting: @Sendable (FindRequest) throws -> Void = { request in
            if request.className == .session { sessionReads.add(1, ordering: .relaxed) }
        }
        try await withServer(wrap: { ObservedStore(inner: $0, beforeFind: counting) }) { (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let token = try #require(reply.json["sessionToken"]?.stringValue)
            _ = try await call(client, .post, "/parse/classes/Note", body: #"{"_method":"GET"}"#, headers: session(token))
            let afterFirst = sessionReads.load(ordering: .relaxed)
            #expect(afterFirst == 1)
            for _ in 0..<5 { _ = try await call(client, .post, "/parse/classes/Note", body: #"{"_method":"GET"}"#, headers: session(token)) }
            #expect(sessionReads.load(ordering: .relaxed) == afterFirst)
        }
    }
}
