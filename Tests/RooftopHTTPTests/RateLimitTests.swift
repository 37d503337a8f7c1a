import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopSQLite
import RooftopServices
import RooftopTesting
import Testing

/// Rate limits: counted in the database, per IP (from the socket, or `X-Forwarded-For` only via a
/// trusted proxy), per account, per route however the route is spelled.
@Suite struct RateLimitTests: LiveServerTest {
    func limited(_ reply: Reply) -> Bool { reply.status == 429 && reply.json == ["code": 100, "error": "Too many requests."] }

    /// Case, trailing slash, percent-encoding, `_method` and `/batch` sub-requests all count
    /// against the same `/login` limit; the answer is 429 with `Retry-After`.
    @Test func spellingsOfARouteShareItsLimit() async throws {
        try await withServer(configure: { _, http in http.rateLimits = [.init(path: "/login", count: 5, window: 60_000)] }) {
            (client: any TestClientProtocol) async throws in
            let credentials = #"{"username":"ana","password":"wrong phrase"}"#
            for path in ["/parse/login", "/parse/LOGIN", "/parse/login/", "/parse/%6Cogin"] {
                #expect(!limited(try await call(client, .post, path, body: credentials)), "\(path)")
            }
            #expect(!limited(try await call(client, .post, "/parse/login", body: #"{"_method":"GET","username":"ana","password":"x"}"#)))
            let batch = #"{"requests":[{"method":"POST","path":"/parse/login","body":{"username":"ana","password":"x"}}]}"#
            #expect(limited(try await call(client, .post, "/parse/batch", body: batch)))
            let headers = try await client.execute(
                uri: "/parse/login", method: .post, headers: [HTTPField.Name("X-Parse-Application-Id")!: testAppId]
            ) {
                ($0.status.code, $0.headers[.retryAfter])
            }
            #expect(headers.0 == 429)
            #expect(Int(headers.1 ?? "").map { (1...60).contains($0) } == true)
            // Other routes are not limited by this rule.
            #expect(try await call(client, .get, "/parse/classes/Note").status == 200)
        }
    }

    /// `X-Forwarded-For` is believed only from a trusted proxy.
    @Test func forwardedForOnlyThroughTrustedProxies() async throws {
        let rule = RateLimiter.Rule(path: "/classes/*", count: 2, window: 60_000)
        try await withServer(configure: { _, http in http.rateLimits = [rule] }) { (client: any TestClientProtocol) async throws in
            var statuses: [Int] = []
            for i in 0..<3 {
                statuses.append(try await call(client, .get, "/parse/classes/Note", headers: ["X-Forwarded-For": "10.0.0.\(i)"]).status)
            }
            #expect(statuses == [200, 200, 429])  // forged headers from an untrusted peer change nothing
        }
        try await withServer(configure: { _, http in
            http.rateLimits = [rule]
            http.trustedProxies = ["127.0.0.1", "::1"]
            // The master key is judged on the forwarded client too, not on the proxy's loopback.
            http.masterKeyIps = ["10.0.0.1"]
        }) { (client: any TestClientProtocol) async throws in
            for i in 0..<4 {
                // Each a different client behind the proxy; the left-most (client-supplied) hop is ignored.
                #expect(try await call(client, .get, "/parse/classes/Note", headers: ["X-Forwarded-For": "6.6.6.6, 10.0.0.\(i)"]).status == 200)
            }
            #expect(try await call(client, .get, "/parse/classes/Note", headers: ["X-Forwarded-For": "10.0.0.1"]).status == 200)
            #expect(try await call(client, .get, "/parse/classes/Note", headers: ["X-Forwarded-For": "10.0.0.1"]).status == 429)
            // The master key is not limited unless a rule says so.
            #expect(try await call(client, .get, "/parse/classes/Note", master: true, headers: ["X-Forwarded-For": "10.0.0.1"]).status == 200)
        }
    }

    /// An `account` rule counts logins naming one account from any address.
    @Test func perAccountLimits() async throws {
        try await withServer(configure: { _, http in
            http.rateLimits = [.init(path: "/login", count: 2, window: 60_000, zone: .account)]
            http.trustedProxies = ["127.0.0.1", "::1"]
        }) { (client: any TestClientProtocol) async throws in
            for i in 0..<2 {
                let reply = try await call(
                    client, .post, "/parse/login", body: #"{"username":"Ana","password":"x"}"#, headers: ["X-Forwarded-For": "10.0.1.\(i)"])
                #expect(!limited(reply))
            }
            let third = try await call(
                client, .post, "/parse/login", body: #"{"username":"ANA","password":"x"}"#, headers: ["X-Forwarded-For": "10.0.1.9"])
            #expect(limited(third))
            #expect(!limited(try await call(client, .post, "/parse/login", body: #"{"username":"bob","password":"x"}"#)))
        }
    }

    /// A window ends: requests are allowed again (a controlled clock, so load can't shift it).
    @Test func windowsEnd() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let store = opened.store
        let now = LockedBox(Int64(1_700_000_000_000))
        let limiter = RateLimiter(
            rules: [.init(path: "/classes/*", count: 1, window: 1000)], store: store,
            clock: ClosureClock { ParseDate(millisecondsSince1970: now.withLock { $0 }) }
        )
        let request = RateLimiter.Request(method: "GET", path: "/classes/Note", clientIP: "10.0.0.1")
        try await limiter.check(request)
        await #expect(throws: RateLimiter.Limited.self) { try await limiter.check(request) }
        now.withLock { $0 += 999 }
        await #expect(throws: RateLimiter.Limited.self) { try await limiter.check(request) }
        now.withLock { $0 += 1 }
        try await limiter.check(request)
        await opened.close()
    }

    /// Every limit a request meets counts it, also when another refuses it: guesses refused by
    /// the per-address limit still spend the account's budget, so moving to a fresh address
    /// gains nothing.
    @Test func aRequestRefusedByOneLimitCountsUnderTheOthers() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let limiter = RateLimiter(
            rules: [.init(path: "/login", count: 1, window: 60_000), .init(path: "/login", count: 4, window: 60_000, zone: .account)],
            store: opened.store, clock: FixedClock(millisecondsSince1970: 1_700_000_000_000))
        func login(from address: String) async -> Bool {
            (try? await limiter.check(RateLimiter.Request(method: "POST", path: "/login", clientIP: address, account: "ana"))) != nil
        }
        // One allowed from the first address, then three refused by its own limit.
        var allowed: [Bool] = []
        for _ in 0..<4 { allowed.append(await login(from: "10.0.0.1")) }
        #expect(allowed == [true, false, false, false])
        // The account has spent its four: a fresh address is refused too.
        #expect(await login(from: "10.0.0.2") == false)
        await opened.close()
    }

    /// The hosted pages' form posts are limited too.
    @Test func pagePostsAreLimited() async throws {
        try await withServer(configure: { _, http in http.rateLimits = [.init(path: "/apps/*", methods: ["POST"], count: 2, window: 60_000)] }) {
            (client: any TestClientProtocol) async throws in
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(
                    try await client.execute(
                        uri: "/parse/apps/\(testAppId)/request_password_reset", method: .post,
                        headers: [.contentType: "application/x-www-form-urlencoded"]
                    ) { Int($0.status.code) })
            }
            #expect(statuses.last == 429)
            #expect(statuses.prefix(2).allSatisfy { $0 != 429 })
        }
    }
}
