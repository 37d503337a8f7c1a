import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// `/sessions`: one's own sessions only, server-owned fields, immediate revocation.
@Suite struct SessionRoutesTests: LiveServerTest {
    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    func login(_ client: any TestClientProtocol, _ name: String, installation: String? = nil) async throws -> String {
        var headers: [String: String] = [:]
        if let installation { headers["X-Parse-Installation-Id"] = installation }
        let reply = try await call(client, .post, "/parse/login", body: #"{"username":"\#(name)","password":"correct horse"}"#, headers: headers)
        return try #require(reply.json["sessionToken"]?.stringValue)
    }

    @Test func ownSessionsOnlyAndImmediateRevocation() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            let ana2 = try await login(client, "ana")
            let bob = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            let list = try #require(try await call(client, .get, "/parse/sessions", headers: session(ana)).json["results"]?.arrayValue)
            #expect(list.count == 2)
            #expect(list.allSatisfy { $0["sessionToken"] == nil && $0["user"]?["className"] == "_User" })
            let me = try await call(client, .get, "/parse/sessions/me", headers: session(ana2))
            #expect(me.json["sessionToken"]?.stringValue == ana2)
            let ana2Id = try #require(me.json["objectId"]?.stringValue)
            #expect(me.json["createdWith"] == ["action": "login", "authProvider": "password"])

            // Bob can neither see nor end Ana's session.
            #expect(try await call(client, .get, "/parse/sessions/\(ana2Id)", headers: session(bob)).status == 404)
            #expect(try await call(client, .delete, "/parse/sessions/\(ana2Id)", headers: session(bob)).status == 404)
            #expect(try await call(client, .get, "/parse/sessions", headers: session(bob)).json["results"]?.arrayValue?.count == 1)

            // Server-owned fields stay the server's.
            #expect(
                try await call(
                    client, .put, "/parse/sessions/\(ana2Id)", body: #"{"expiresAt":{"__type":"Date","iso":"2999-01-01T00:00:00.000Z"}}"#,
                    headers: session(ana)
                ).json["code"] == 105)
            #expect(
                try await call(
                    client, .put, "/parse/sessions/\(ana2Id)", body: #"{"user":{"__type":"Pointer","className":"_User","objectId":"abcdefghij"}}"#,
                    headers: session(ana)
                ).json["code"] == 105)
            // A field of the app's own is the holder's to set.
            #expect(try await call(client, .put, "/parse/sessions/\(ana2Id)", body: #"{"label":"work"}"#, headers: session(ana)).status == 200)

            // Ending a session works at once, even though it was just validated (cached).
            #expect(try await call(client, .get, "/parse/users/me", headers: session(ana2)).status == 200)
            #expect(try await call(client, .delete, "/parse/sessions/\(ana2Id)", headers: session(ana)).json == [:])
            #expect(try await call(client, .get, "/parse/users/me", headers: session(ana2)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/sessions").json["code"] == 209)
        }
    }

    @Test func createdSessionsAndInstallations() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            #expect(
                try await call(
                    client, .post, "/parse/sessions", body: #"{"user":{"__type":"Pointer","className":"_User","objectId":"abcdefghij"}}"#,
                    headers: session(ana)
                ).json["code"] == 105)
            let created = try await call(client, .post, "/parse/sessions", body: #"{"label":"tablet"}"#, headers: session(ana))
            #expect(created.status == 201)
            let extra = try #require(created.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(extra)).json["username"] == "ana")

            // Logging in again on the same installation replaces that installation's session.
            let first = try await login(client, "ana", installation: "device-1")
            let second = try await login(client, "ana", installation: "device-1")
            #expect(try await call(client, .get, "/parse/users/me", headers: session(first)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(second)).status == 200)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(ana)).status == 200)
        }
    }

    /// Expired sessions answer 209 and the background job deletes them (on the test's clock:
    /// no waiting for real time).
    @Test func expiredSessionsAreRefusedAndCleanedUp() async throws {
        var accounts = AccountsConfiguration()
        accounts.sessionLength = 3
        let clock = TestClock()
        try await withServer(accounts: accounts, clock: clock, maintenanceInterval: .seconds(60)) { (client: any TestClientProtocol) async throws in
            let token = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            clock.advance(by: .milliseconds(2999))
            #expect(try await call(client, .get, "/parse/users/me", headers: session(token)).status == 200)
            clock.advance(by: .milliseconds(1))
            #expect(try await call(client, .get, "/parse/users/me", headers: session(token)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == 1)
            try await clock.untilSleeping(1)
            clock.advance(by: .seconds(60))
            // The round runs once the job wakes; it sleeps again when the round is done.
            try await clock.untilSleeping(1)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == 0)
            // The user is still there and can log in again.
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#).status == 200)
        }
    }

    /// Many signed-in reads at once (each resolving a session, roles, then the object) must all
    /// complete: reads never block a Swift concurrency thread waiting for a database reader.
    @Test(.timeLimit(.minutes(1))) func concurrentSignedInReadsComplete() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let note = try #require(
                try await call(client, .post, "/parse/classes/Note", body: #"{"t":"x"}"#, headers: session(token)).json["objectId"]?.stringValue)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<300 {
                    group.addTask { try await call(client, .get, "/parse/classes/Note/\(note)", headers: session(token)).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 300 && statuses.allSatisfy { $0 == 200 })
        }
    }

    /// `extendSessionOnUse`: a session used past half its life is renewed; unused ones expire.
    @Test func slidingExpiry() async throws {
        var accounts = AccountsConfiguration()
        accounts.sessionLength = 4
        accounts.extendSessionOnUse = true
        let clock = TestClock()
        try await withServer(accounts: accounts, clock: clock) { (client: any TestClientProtocol) async throws in
            let unused = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            let used = try #require(
                try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            clock.advance(by: .milliseconds(2400))  // past half of 4 s: renewed to +4 s from here
            #expect(try await call(client, .get, "/parse/users/me", headers: session(used)).status == 200)
            clock.advance(by: .milliseconds(2400))  // 4.8 s: past the first lifetime
            #expect(try await call(client, .get, "/parse/users/me", headers: session(used)).status == 200)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(unused)).json["code"] == 209)
        }
    }
}
