import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// A route's checks (access, rate limits) hold however the route is reached: directly, through
/// `_method`, as a `/batch` item, inside a transaction, or through the path it stands for.
@Suite struct RouteReachTests: LiveServerTest {
    func limited(_ reply: Reply) -> Bool { reply.status == 429 && reply.json["code"] == 100 }

    func user(_ name: String) -> String { #"{"username":"\#(name)","password":"correct horse \#(name)"}"# }

    /// `POST /classes/_User` (alone or batched) is a sign-up and counts against sign-up limits.
    @Test func everyWayToCreateAUserCountsAsASignUp() async throws {
        let rule = RateLimiter.Rule(path: "/users", methods: ["POST"], count: 2, window: 60_000)
        try await withServer(configure: { _, http in http.rateLimits = [rule] }) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/users", body: user("ana")).status == 201)
            #expect(try await call(client, .post, "/parse/classes/_User", body: user("bob")).status == 201)
            #expect(limited(try await call(client, .post, "/parse/users", body: user("cy"))))
            #expect(limited(try await call(client, .post, "/parse/classes/_User", body: user("dee"))))
            let batch = #"{"requests":[{"method":"POST","path":"/parse/classes/_User","body":\#(user("eve"))}]}"#
            #expect(limited(try await call(client, .post, "/parse/batch", body: batch)))
            let users = try await call(client, .get, "/parse/users", master: true)
            #expect(users.json["results"]?.arrayValue?.count == 2)
        }
    }

    /// A transaction is counted item by item: a rule of 3 writes a minute lets no batch of 10 by.
    @Test func transactionsCountEachItem() async throws {
        let rule = RateLimiter.Rule(path: "/classes/*", methods: ["POST"], count: 3, window: 60_000)
        try await withServer(configure: { _, http in http.rateLimits = [rule] }) { (client: any TestClientProtocol) async throws in
            let items = (0..<10).map { #"{"method":"POST","path":"/parse/classes/Note","body":{"n":\#($0)}}"# }.joined(separator: ",")
            let reply = try await call(client, .post, "/parse/batch", body: #"{"transaction":true,"requests":[\#(items)]}"#)
            #expect(limited(reply))
            let notes = try await call(client, .get, "/parse/classes/Note", master: true)
            #expect(notes.json["results"]?.arrayValue?.count == 0)
        }
    }

    /// Access rules of the route apply to a batch item and to a `_method` override.
    @Test func accessRulesHoldInBatchesAndOverrides() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let batch = try await call(
                client, .post, "/parse/batch",
                body: #"{"requests":[{"method":"GET","path":"/parse/schemas"},{"method":"GET","path":"/parse/users/me"},"#
                    + #"{"method":"GET","path":"/parse/sessions"},{"method":"DELETE","path":"/parse/files/x.txt"}]}"#)
            #expect(
                batch.json
                    == [
                        ["error": ["code": 119, "error": "unauthorized: master key is required"]],
                        ["error": ["code": 209, "error": "Invalid session token"]],
                        ["error": ["code": 209, "error": "Invalid session token"]],
                        ["error": ["code": 119, "error": "unauthorized: master key is required"]],
                    ])
            let overridden = try await call(client, .post, "/parse/schemas", body: #"{"_method":"GET"}"#)
            #expect(overridden.status == 403)
            let transaction = try await call(
                client, .post, "/parse/batch", body: #"{"transaction":true,"requests":[{"method":"POST","path":"/parse/users","body":{}}]}"#)
            #expect(transaction.json["code"] == 107)
        }
    }

    /// A file upload's body is the file: routed without being read as JSON.
    @Test func uploadsAreNotParsedAsJSON() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/files/avatar.png", body: "\u{89}PNG not json")
            #expect(reply.status == 400)
            #expect(reply.json["code"] == 130)
        }
    }

    /// Misses are counted like hits — unknown methods, unknown paths, page posts no page answers
    /// — and the health check never is (a load balancer's probe must not be refused).
    @Test func missesAreCountedAndHealthChecksAreNot() async throws {
        let rules = [
            RateLimiter.Rule(path: "/classes/*", count: 1, window: 60_000), RateLimiter.Rule(path: "/apps/*", count: 1, window: 60_000),
            RateLimiter.Rule(path: "/health", count: 1, window: 60_000, zone: .global),
        ]
        try await withServer(configure: { _, http in http.rateLimits = rules }) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .patch, "/parse/classes/Note").json["code"] == 107)
            #expect(limited(try await call(client, .patch, "/parse/classes/Note")))
            let page = "/parse/apps/\(testAppId)/no_such_page"
            #expect(try await client.execute(uri: page, method: .post) { $0.status.code } == 404)
            #expect(try await client.execute(uri: page, method: .post) { $0.status.code } == 429)
            for _ in 0..<3 {
                #expect(try await client.execute(uri: "/parse/health", method: .get) { $0.status.code } == 200)
                #expect(try await client.execute(uri: "/parse/health", method: .head) { $0.status.code } == 200)
            }
        }
    }

    /// `/classes/_User` writes of custom fields take part in a transaction, as before the table.
    @Test func userCustomFieldsInATransaction() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await call(client, .post, "/parse/users", body: user("ana"))
            let id = try #require(ana.json["objectId"]?.stringValue)
            let batch =
                #"{"transaction":true,"requests":[{"method":"PUT","path":"/parse/classes/_User/\#(id)","body":{"level":3}},"#
                + #"{"method":"POST","path":"/parse/classes/Note","body":{"n":1}}]}"#
            let reply = try await call(client, .post, "/parse/batch", body: batch, master: true)
            #expect(reply.status == 200)
            #expect(try await call(client, .get, "/parse/users/\(id)", master: true).json["level"] == 3)
            let refused = #"{"transaction":true,"requests":[{"method":"PUT","path":"/parse/classes/_User/\#(id)","body":{"password":"x"}}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: refused, master: true).status == 400)
        }
    }
}
