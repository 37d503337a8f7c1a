import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopCore
import RooftopHTTP
import RooftopSQLite
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Authentication events in `_Audit`: recorded with user, client address and user agent;
/// queryable with the master key only; never writable through the API.
@Suite struct AuditLogTests: LiveServerTest {
    func events(_ client: any TestClientProtocol, _ whereJSON: String = "{}") async throws -> [JSON] {
        let reply = try await call(client, .get, "/parse/classes/_Audit?order=createdAt&where=\(encoded(whereJSON))", master: true)
        return reply.json["results"]?.arrayValue ?? []
    }

    @Test func authenticationEventsAreRecorded() async throws {
        try await withServer(configure: { _, http in http.trustedProxies = ["127.0.0.1", "::1"] }) { (client: any TestClientProtocol) async throws in
            let agent = ["User-Agent": "TodoApp/1.0", "X-Forwarded-For": "203.0.113.7"]
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"first phrase"}"#, headers: agent)
            let id = try #require(signup.json["objectId"]?.stringValue)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            _ = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong phrase"}"#, headers: agent)
            _ = try await call(client, .post, "/parse/login", body: #"{"username":"nobody","password":"wrong phrase"}"#, headers: agent)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"first phrase"}"#, headers: agent)
            #expect(login.status == 200)
            let change = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"password":"second phrase"}"#, headers: ["X-Parse-Session-Token": token])
            let fresh = try #require(change.json["sessionToken"]?.stringValue)  // every other session ended
            _ = try await call(client, .post, "/parse/loginAs", body: #"{"userId":"\#(id)"}"#, master: true)
            _ = try await call(client, .post, "/parse/logout", headers: ["X-Parse-Session-Token": fresh])

            let all = try await events(client)
            let types = all.compactMap { $0["type"]?.stringValue }
            let expected = ["signup", "login.failed", "login.failed", "login", "password.changed", "login.as", "logout"]
            #expect(types.sorted() == expected.sorted(), "\(types)")  // events of one millisecond may tie in order
            let first = try #require(all.first { $0["type"] == "signup" })
            #expect(first["userId"]?.stringValue == id)
            #expect(first["ip"] == "203.0.113.7")
            #expect(first["userAgent"] == "TodoApp/1.0")
            let failures = all.filter { $0["type"] == "login.failed" }
            #expect(Set(failures.compactMap { $0["reason"]?.stringValue }) == ["wrong password", "unknown user"])
            #expect(failures.first { $0["reason"] == "unknown user" }?["userId"] == nil)

            // Queries by user, type and time range (master key).
            let failed = try await events(client, #"{"type":"login.failed","userId":"\#(id)"}"#)
            #expect(failed.count == 1)
            let since = try #require(all.first?["createdAt"]?.stringValue)
            let ranged = try await events(client, #"{"createdAt":{"$gte":{"__type":"Date","iso":"\#(since)"}}}"#)
            #expect(ranged.count == all.count)

            // Clients can't read it; nobody can write it through the API.
            #expect(try await call(client, .get, "/parse/classes/_Audit").json["code"] == 119)
            #expect(try await call(client, .post, "/parse/classes/_Audit", body: #"{"type":"login"}"#, master: true).json["code"] == 119)
            let someEvent = try #require(first["objectId"]?.stringValue)
            #expect(try await call(client, .delete, "/parse/classes/_Audit/\(someEvent)", master: true).json["code"] == 119)
            #expect(try await call(client, .put, "/parse/classes/_Audit/\(someEvent)", body: #"{"type":"x"}"#, master: true).json["code"] == 119)
            // Nor through /schemas: no field of it can be dropped, the class can't be deleted.
            let dropField = #"{"fields":{"ip":{"__op":"Delete"}}}"#
            #expect(try await call(client, .put, "/parse/schemas/_Audit", body: dropField, master: true).json["code"] == 119)
            #expect(try await call(client, .delete, "/parse/schemas/_Audit", master: true).json["code"] == 119)
            #expect(try await events(client).count == all.count)
        }
    }

    /// Events past `auditLogRetentionDays` are deleted by the cleanup.
    @Test func retention() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let store = opened.store
        let now = LockedBox(Int64(1_700_000_000_000))
        let clock = ClosureClock { ParseDate(millisecondsSince1970: now.withLock { $0 }) }
        let log = AuditLog(store: store, clock: clock, logger: Logger(label: "audit"))
        await log.record(.login, userId: "u1", origin: .server)
        now.withLock { $0 += 2 * 86_400_000 }
        await log.record(.logout, userId: "u1", origin: .server)
        #expect(try await log.prune(olderThanDays: 1) == 1)
        #expect(try await log.find(.and([]), limit: 10).compactMap { $0.fields["type"]?.stringValue } == ["logout"])
        #expect(try await log.prune(olderThanDays: 0) == 0)  // 0 keeps everything
        await opened.close()
    }
}
