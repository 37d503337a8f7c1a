import Foundation
import Logging
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Account rules at the service level over a temporary SQLite file, with a clock the test moves:
/// no HTTP, no mail server, no waiting.
@Suite struct AccountRulesTests: LiveServerTest {
    func signUp(_ accounts: Accounts, _ body: [String: JSON]) async throws -> SignUp.SignUpResult {
        try await SignUp(accounts: accounts, origin: .server).signUp(body: body, installationId: nil, principal: .master)
    }

    static let caseFoldedDuplicates: [(first: [String: JSON], second: [String: JSON], code: Int)] = [
        (["username": "Ana", "password": "right phrase"], ["username": "ana", "password": "right phrase"], 202),
        (["username": "ana", "password": "right phrase"], ["username": "ANA", "password": "right phrase"], 202),
        (
            ["username": "ana", "password": "right phrase", "email": "Ana@Example.com"],
            ["username": "bob", "password": "right phrase", "email": "ana@example.COM"], 203
        ),
    ]

    @Test(arguments: caseFoldedDuplicates)
    func signUpIsUniqueAfterCaseFolding(_ first: [String: JSON], _ second: [String: JSON], _ code: Int) async throws {
        try await withAccounts(AccountsConfiguration()) { accounts, _ in
            _ = try await signUp(accounts, first)
            await #expect { _ = try await signUp(accounts, second) } throws: { ($0 as? ParseError)?.code.rawValue == code }
        }
    }

    static let passwords: [(password: String, accepted: Bool)] = [
        ("seven77", false), ("eight888", true), (String(repeating: "p", count: 257), false), ("no digits here", false),
        ("digits 123 here", true),
    ]

    @Test(arguments: passwords)
    func passwordPolicy(_ password: String, _ accepted: Bool) async throws {
        var config = AccountsConfiguration()
        config.passwordPolicy.pattern = "[0-9]"
        try await withAccounts(config) { accounts, _ in
            let body: [String: JSON] = ["username": "ana", "password": .string(password)]
            if accepted {
                _ = try await signUp(accounts, body)
            } else {
                await #expect { _ = try await signUp(accounts, body) } throws: { ($0 as? ParseError)?.code == .validationError }
            }
        }
    }

    /// A success resets the count; the lock ends exactly when its duration has passed.
    @Test func lockoutCountsAndExpiresWithTheClock() async throws {
        var config = AccountsConfiguration()
        config.lockout = .init(threshold: 3, duration: 600)
        try await withAccounts(config) { accounts, now in
            _ = try await signUp(accounts, ["username": "ana", "password": "right phrase"])
            let right: [String: JSON] = ["username": "ana", "password": "right phrase"]
            let wrong: [String: JSON] = ["username": "ana", "password": "wrong phrase"]
            for _ in 0..<2 {
                await #expect(throws: ParseError.self) {
                    _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: wrong, installationId: nil)
                }
            }
            _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
            for _ in 0..<3 {
                await #expect(throws: ParseError.self) {
                    _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: wrong, installationId: nil)
                }
            }
            await #expect { _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil) } throws: {
                ($0 as? ParseError)?.message.hasPrefix("Your account is locked") == true
            }
            now.withLock { $0 += 599_000 }
            await #expect(throws: ParseError.self) {
                _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
            }
            now.withLock { $0 += 2_000 }
            _ = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil)
        }
    }

    /// A session is valid until `sessionLength` has passed on the service clock.
    @Test func sessionsExpireWithTheClock() async throws {
        var config = AccountsConfiguration()
        config.sessionLength = 3600
        try await withAccounts(config) { accounts, now in
            let right: [String: JSON] = ["username": "ana", "password": "right phrase"]
            let first = try #require(try await signUp(accounts, right).sessionToken)
            let second = try await LogIn(accounts: accounts, origin: .server).logIn(params: right, installationId: nil).sessionToken
            now.withLock { $0 += 3_599_000 }
            _ = try await SessionManagement(accounts: accounts, origin: .server).currentSession(token: first)
            now.withLock { $0 += 2_000 }
            // Not read since the clock passed its expiry: refused.
            await #expect { _ = try await SessionManagement(accounts: accounts, origin: .server).currentSession(token: second) } throws: {
                ($0 as? ParseError)?.code == .invalidSessionToken
            }
            // Read (and cached) just before expiry: the cache expires on the same clock.
            await #expect { _ = try await SessionManagement(accounts: accounts, origin: .server).currentSession(token: first) } throws: {
                ($0 as? ParseError)?.code == .invalidSessionToken
            }
        }
    }
}

/// The account use cases log through the logger they are given (the server's, with its
/// `logFormat` and level), not a logger of their own.
@Suite struct AccountLoggingTests: LiveServerTest {
    @Test func auditFailuresGoToTheServersLogger() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        // A store whose every write fails, as a failed disk would make it.
        let failing = ObservedStore(inner: opened.store, beforeWrite: { _ in throw StorageError.unavailable("disk failed") })
        let objects = Objects(store: failing, config: ServicesConfiguration(), clock: FixedClock(millisecondsSince1970: 0))
        let log = CapturedLog()
        let accounts = Accounts(
            objects: objects, hasher: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), config: AccountsConfiguration(), logger: log.logger)
        // The audit write fails: the failure is logged, the caller goes on.
        await accounts.audit.record(.login, userId: "abc", detail: "failed", origin: .server)
        await opened.close()
        #expect(log.messages.contains("audit log write failed"), "\(log.messages)")
        #expect(log.levels.contains(.error))
    }

    /// A client's words with NUL (which no store takes) are recorded with U+FFFD in its place:
    /// an audit record now rides in its login's transaction, and must not fail it.
    @Test func auditRecordsKeepTextNoStoreWouldTake() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let objects = Objects(store: opened.store, config: ServicesConfiguration(), clock: FixedClock(millisecondsSince1970: 0))
        let log = CapturedLog()
        let accounts = Accounts(
            objects: objects, hasher: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), config: AccountsConfiguration(), logger: log.logger)
        let origin = RequestOrigin(clientIP: "127.0.0.1", userAgent: "agent\u{0}x")
        await accounts.audit.record(.login, userId: "abc", detail: "nul\u{0}", origin: origin)
        let found = try await accounts.audit.find(try QueryNode.parse(where: [:]), limit: 10)
        await opened.close()
        #expect(log.messages.isEmpty, "\(log.messages)")
        #expect(found.count == 1)
        #expect(found.first?.fields["detail"] == "nul\u{FFFD}")
        #expect(found.first?.fields["userAgent"] == "agent\u{FFFD}x")
    }
}
