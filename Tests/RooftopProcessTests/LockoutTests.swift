import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopSQLite
import RooftopServices
import RooftopTesting
import Testing

/// `accountLockout`: a counter incremented atomically in the database before each password
/// check, so even parallel guesses get at most `threshold` checks before the lock.
@Suite struct LockoutTests: LiveServerTest {
    static let locked = "Your account is locked due to multiple failed login attempts."

    func login(_ client: any TestClientProtocol, _ password: String) async throws -> Reply {
        try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"\#(password)"}"#)
    }

    @Test func lockAfterThresholdAndExpiry() async throws {
        var accounts = AccountsConfiguration()
        accounts.lockout = .init(threshold: 3, duration: 600)
        try await withServer(accounts: accounts) { client in
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"right phrase"}"#)
            // A success resets the count.
            for _ in 0..<2 { #expect(try await login(client, "wrong phrase").json["error"] == "Invalid username/password.") }
            #expect(try await login(client, "right phrase").status == 200)
            for _ in 0..<3 { #expect(try await login(client, "wrong phrase").json["error"] == "Invalid username/password.") }
            let refused = try await login(client, "right phrase")
            #expect(refused.status == 404 && refused.json["code"] == 101)
            #expect(refused.json["error"]?.stringValue?.hasPrefix(Self.locked) == true)
            let verify = try await call(client, .post, "/parse/verifyPassword", body: #"{"username":"ana","password":"right phrase"}"#)
            #expect(verify.json["error"]?.stringValue?.hasPrefix(Self.locked) == true)  // every password path
        }
    }

    /// The lock ends by itself (a controlled clock: wall-clock waits are flaky on a loaded machine).
    @Test func lockExpires() async throws {
        var config = AccountsConfiguration()
        config.lockout = .init(threshold: 2, duration: 60)
        try await withAccounts(config) { accounts, now in
            _ = try await SignUp(accounts: accounts, origin: .server).signUp(
                body: ["username": "ana", "password": "right phrase"], installationId: nil, principal: .master)
            for _ in 0..<2 {
                await #expect(throws: ParseError(.objectNotFound, "Invalid username/password.")) {
                    _ = try await LogIn(accounts: accounts, origin: .server).logIn(
                        params: ["username": "ana", "password": "wrong phrase"], installationId: nil)
                }
            }
            let right: [String: JSON] = ["username": "ana", "password": "right phrase"]
            await #expect(throws: ParseError.self) {
                _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
            }
            now.withLock { $0 += 59_000 }
            await #expect(throws: ParseError.self) {
                _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
            }
            now.withLock { $0 += 2_000 }
            _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
        }
    }

    /// 50 wrong passwords at once against threshold 5: at most 5 are checked (answered "invalid"),
    /// the rest are refused as locked without a bcrypt run; then even the right one is locked out.
    @Test func parallelGuessesGetAtMostThresholdChecks() async throws {
        var accounts = AccountsConfiguration()
        accounts.lockout = .init(threshold: 5, duration: 60)
        try await withServer(accounts: accounts) { client in
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"right phrase"}"#)
            let port = try #require(client.port)
            let body = #"{"username":"ana","password":"wrong phrase"}"#
            let request =
                "POST /parse/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let replies = await parallelReplies(port: port, Array(repeating: request, count: 50))
            let checked = replies.filter { $0.contains("Invalid username/password.") }.count
            let refused = replies.filter { $0.contains(Self.locked) }.count
            #expect(replies.count == 50 && checked + refused == 50)
            #expect((1...5).contains(checked), "\(checked) password checks")
            #expect(try await login(client, "right phrase").json["error"]?.stringValue?.hasPrefix(Self.locked) == true)
        }
    }

    /// `unlockOnPasswordReset`: the emailed reset unlocks at once.
    @Test func resetUnlocks() async throws {
        let server = try SMTPTestServer()
        var (mail, accounts) = mailSetup(server, verify: false)
        accounts.lockout = .init(threshold: 2, duration: 600, unlockOnPasswordReset: true)
        try await withServer(accounts: accounts, mail: mail) { client in
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"right phrase","email":"ana@example.com"}"#)
            for _ in 0..<3 { _ = try await login(client, "wrong phrase") }
            #expect(try await login(client, "right phrase").json["error"]?.stringValue?.hasPrefix(Self.locked) == true)
            _ = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#)
            let token = String(try await link(server, message: 1).full.split(separator: "=").last ?? "")
            let done = try await page(
                client, .post, "/parse/apps/\(testAppId)/request_password_reset", form: "token=\(token)&new_password=fresh+phrase")
            #expect(done.status == 200)
            #expect(try await login(client, "fresh phrase").status == 200)
            let audit = try await call(client, .get, "/parse/classes/_Audit?limit=100", master: true).json["results"]?.arrayValue ?? []
            let types = Set(audit.compactMap { $0["type"]?.stringValue })
            #expect(types.isSuperset(of: ["signup", "login.failed", "lockout", "password.reset", "login"]), "\(types)")
        }
    }
}
