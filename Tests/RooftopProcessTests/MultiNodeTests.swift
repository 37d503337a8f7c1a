import Foundation
import RooftopCore
import RooftopHTTP
import RooftopPostgres
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Two nodes on one PostgreSQL database behave as one server: what one node revokes or changes,
/// the other enforces within a second (LISTEN/NOTIFY), counters are shared, and periodic jobs
/// run on one node per interval.
@Suite(.serialized) struct MultiNodeTests {
    func withCluster(
        accounts: AccountsConfiguration = AccountsConfiguration(),
        configure: (inout ServicesConfiguration, inout HTTPConfiguration) -> Void = { _, _ in },
        _ body: (ClusterNodes) async throws -> Void
    ) async throws {
        let cluster = try await ClusterNodes.start(accounts: accounts, configure: configure)
        do {
            try await body(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// Signs `name` up on node 0: (objectId, session token).
    func signUp(_ cluster: ClusterNodes, _ name: String) async throws -> (String, String) {
        let (status, user) = try await cluster.call(0, "POST", "/users", body: #"{"username":"\#(name)","password":"correct horse battery"}"#)
        try #require(status == 201, "\(user)")
        return (user["objectId"]?.stringValue ?? "", user["sessionToken"]?.stringValue ?? "")
    }

    /// How long until node 1 refuses `token` (209), after node 0 revoked it.
    func refusal(_ cluster: ClusterNodes, _ token: String) async throws -> Duration {
        let start = ContinuousClock.now
        try await waitUntil(.seconds(1)) { try await cluster.call(1, "GET", "/users/me", token: token).1["code"] == 209 }
        return ContinuousClock.now - start
    }

    @Test func revokedSessionsAreRefusedOnTheOtherNode() async throws {
        try await withCluster { cluster in
            // Logout.
            let (userId, token) = try await signUp(cluster, "ana")
            #expect(try await cluster.call(1, "GET", "/users/me", token: token).0 == 200)  // node 1 caches it
            #expect(try await cluster.call(0, "POST", "/logout", token: token).0 == 200)
            let afterLogout = try await refusal(cluster, token)

            // A password change.
            let (_, login) = try await cluster.call(0, "POST", "/login", body: #"{"username":"ana","password":"correct horse battery"}"#)
            let second = try #require(login["sessionToken"]?.stringValue)
            let (_, other) = try await cluster.call(0, "POST", "/login", body: #"{"username":"ana","password":"correct horse battery"}"#)
            let third = try #require(other["sessionToken"]?.stringValue)
            #expect(try await cluster.call(1, "GET", "/users/me", token: second).0 == 200)
            #expect(try await cluster.call(1, "GET", "/users/me", token: third).0 == 200)
            let change = try await cluster.call(0, "PUT", "/users/\(userId)", body: #"{"password":"another long password"}"#, token: third)
            #expect(change.0 == 200)
            let afterPasswordChange = try await refusal(cluster, second)

            // Deleting a session through /sessions.
            let (_, fresh) = try await cluster.call(0, "POST", "/login", body: #"{"username":"ana","password":"another long password"}"#)
            let fourth = try #require(fresh["sessionToken"]?.stringValue)
            #expect(try await cluster.call(1, "GET", "/users/me", token: fourth).0 == 200)
            let (_, session) = try await cluster.call(0, "GET", "/sessions/me", token: fourth)
            #expect(try await cluster.call(0, "DELETE", "/sessions/\(session["objectId"]?.stringValue ?? "")", master: true).0 == 200)
            let afterDeletion = try await refusal(cluster, fourth)
            print("multi-node refusal after logout \(afterLogout), password change \(afterPasswordChange), deletion \(afterDeletion)")
        }
    }

    @Test func roleAndPermissionChangesReachTheOtherNode() async throws {
        try await withCluster { cluster in
            let (bo, token) = try await signUp(cluster, "bo")
            let (status, _) = try await cluster.call(
                0, "POST", "/classes/Memo", body: #"{"text":"for admins","ACL":{"role:admins":{"read":true}}}"#, master: true)
            #expect(status == 201)
            let role = #"{"name":"admins","ACL":{"*":{"read":true}}}"#
            let (_, created) = try await cluster.call(0, "POST", "/roles", body: role, master: true)
            let roleId = try #require(created["objectId"]?.stringValue, "\(created)")
            // Node 1 resolves (and caches) bo's roles: none yet.
            #expect(try await cluster.call(1, "GET", "/classes/Memo", token: token).1["results"]?.arrayValue?.count == 0)
            let add = #"{"users":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(bo)"}]}}"#
            #expect(try await cluster.call(0, "PUT", "/roles/\(roleId)", body: add, master: true).0 == 200)
            // Sooner than the role cache's own expiry (5 s).
            try await waitUntil(.seconds(1)) {
                try await cluster.call(1, "GET", "/classes/Memo", token: token).1["results"]?.arrayValue?.count == 1
            }

            // Class-level permissions changed on node 0 hold on node 1 at once.
            #expect(try await cluster.call(1, "GET", "/classes/Memo", token: token).0 == 200)
            let closed = #"{"classLevelPermissions":{"find":{},"get":{},"count":{},"create":{},"update":{},"delete":{},"addField":{}}}"#
            #expect(try await cluster.call(0, "PUT", "/schemas/Memo", body: closed, master: true).0 == 200)
            try await waitUntil(.seconds(1)) { try await cluster.call(1, "GET", "/classes/Memo", token: token).0 != 200 }
        }
    }

    @Test func lockoutAndRateLimitsCountOnEveryNode() async throws {
        var accounts = AccountsConfiguration()
        accounts.lockout = .init(threshold: 3, duration: 600)
        try await withCluster(accounts: accounts, configure: { _, http in http.rateLimits = [.init(path: "/classes/*", count: 3, window: 60_000)] }) {
            cluster in
            _ = try await signUp(cluster, "cy")
            let wrong = #"{"username":"cy","password":"wrong password"}"#
            for i in 0..<3 { _ = try await cluster.call(i % 2, "POST", "/login", body: wrong) }
            // Three failures spread over both nodes lock the account on both.
            let right = #"{"username":"cy","password":"correct horse battery"}"#
            for node in 0..<2 {
                let (_, answer) = try await cluster.call(node, "POST", "/login", body: right)
                #expect(answer["code"] == 101 && answer["error"]?.stringValue?.contains("locked") == true, "\(answer)")
            }
            var statuses: [Int] = []
            for i in 0..<4 { statuses.append(try await cluster.call(i % 2, "GET", "/classes/Thing", master: false).0) }
            #expect(statuses == [200, 200, 200, 429])
        }
    }

    @Test func periodicJobsRunOncePerInterval() async throws {
        let url = try await TestStores.freshPostgresDatabase()
        let (a, taskA) = try await TestStores.postgres(url: url)
        let (b, taskB) = try await TestStores.postgres(url: url)
        defer {
            taskA.cancel()
            taskB.cancel()
        }
        let now: Int64 = 1_700_000_000_000
        let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
            for store in [a, b, a, b] { group.addTask { try await store.claimJob("cleanup", every: 60_000, now: now) } }
            var results: [Bool] = []
            for try await claimed in group { results.append(claimed) }
            return results
        }
        #expect(claims.filter { $0 }.count == 1)
        #expect(try await b.claimJob("cleanup", every: 60_000, now: now + 30_000) == false)
        #expect(try await a.claimJob("cleanup", every: 60_000, now: now + 60_000) == true)
        #expect(try await b.claimJob("other", every: 60_000, now: now + 60_000) == true)
    }

    @Test func aLostListenerMeansNoCachedSessions() async throws {
        try await withCluster { cluster in
            let (_, token) = try await signUp(cluster, "di")
            #expect(try await cluster.call(1, "GET", "/users/me", token: token).0 == 200)
            // Cut every listener (as a network failure would), then revoke on node 0: the
            // notification is lost, yet node 1 must not answer from its cache.
            try await terminateListeners(cluster.databaseURL)
            try await waitUntil(.seconds(2)) { !cluster.nodes[1].store.cacheBus.isLive }
            #expect(try await cluster.call(0, "POST", "/logout", token: token).0 == 200)
            #expect(try await cluster.call(1, "GET", "/users/me", token: token).1["code"] == 209)
            // The listener comes back by itself.
            try await waitUntil(.seconds(5)) { cluster.nodes[1].store.cacheBus.isLive }
        }
    }

    /// Ends the `LISTEN` connections on the database of `url`.
    func terminateListeners(_ url: String) async throws {
        try await TestStores.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
    }
}

extension MultiNodeTests {
    /// Parse Config is cached per node; a change on one node reaches the other's cache at once.
    @Test func configChangesReachTheOtherNode() async throws {
        try await withCluster { cluster in
            let first = #"{"params":{"motd":"one"}}"#
            #expect(try await cluster.call(0, "PUT", "/config", body: first, master: true).0 == 200)
            #expect(try await cluster.call(1, "GET", "/config").1 == ["params": ["motd": "one"]])  // node 1 caches it
            #expect(try await cluster.call(0, "PUT", "/config", body: #"{"params":{"motd":"two"}}"#, master: true).0 == 200)
            try await waitUntil(.seconds(1)) { try await cluster.call(1, "GET", "/config").1 == ["params": ["motd": "two"]] }
        }
    }
}
