import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopSQLite
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// `passwordPolicy` over HTTP (sign-up, update, the reset form) and at the service level with a
/// controlled clock (password age).
@Suite struct PasswordPolicyTests: LiveServerTest {
    func update(_ client: any TestClientProtocol, _ id: String, _ session: String, password: String) async throws -> Reply {
        try await call(client, .put, "/parse/users/\(id)", body: #"{"password":"\#(password)"}"#, headers: ["X-Parse-Session-Token": session])
    }

    @Test func commonPasswordsUsernamesAndHistory() async throws {
        var accounts = AccountsConfiguration()
        accounts.passwordPolicy.doNotAllowUsername = true
        accounts.passwordPolicy.maxPasswordHistory = 3
        try await withServer(accounts: accounts) { client in
            let common = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"iloveyou1"}"#)
            #expect(common.status == 400 && common.json["code"] == 142)
            #expect(common.json["error"] == "This password is too common: choose one that is harder to guess.")
            let withName = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"my ANA secret"}"#)
            #expect(withName.json["error"] == "Password cannot contain your username.")
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"first phrase"}"#)
            var session = try #require(signup.json["sessionToken"]?.stringValue)
            let id = try #require(signup.json["objectId"]?.stringValue)
            for next in ["second phrase", "third phrase"] {
                let reply = try await update(client, id, session, password: next)
                session = try #require(reply.json["sessionToken"]?.stringValue)
            }
            // The last three: the current one and the two before it.
            for reused in ["first phrase", "second phrase", "third phrase"] {
                let reply = try await update(client, id, session, password: reused)
                #expect(reply.json["code"] == 142 && reply.json["error"] == "New password should not be the same as last 3 passwords.", "\(reused)")
            }
            let fourth = try await update(client, id, session, password: "fourth phrase")
            session = try #require(fourth.json["sessionToken"]?.stringValue)
            // "first phrase" has dropped out of the last three.
            #expect(try await update(client, id, session, password: "first phrase").status == 200)
        }
    }

    /// A long passphrase (over bcrypt's 72 bytes) signs up and logs in; one character off fails.
    @Test func longPassphrases() async throws {
        try await withServer { client in
            let phrase = String(repeating: "長いパスフレーズ", count: 8)  // 64 characters, 192 bytes
            let body = #"{"username":"ana","password":"\#(phrase)"}"#
            let almost = #"{"username":"ana","password":"\#(String(phrase.dropLast()) + "x")"}"#
            let signup = try await call(client, .post, "/parse/users", body: body)
            #expect(signup.status == 201)
            let login = try await call(client, .post, "/parse/login", body: body)
            #expect(login.status == 200)
            let wrong = try await call(client, .post, "/parse/login", body: almost)
            #expect(wrong.status == 404)
        }
    }

    /// `maxPasswordAge`: after it, the right password gets 101 "expired" (a wrong one still the
    /// usual message); a new password starts the clock again.
    @Test func passwordsExpire() async throws {
        var config = AccountsConfiguration()
        config.passwordPolicy.maxPasswordAge = 1
        try await withAccounts(config) { accounts, now in
            let user = try await SignUp(accounts: accounts, origin: .server).signUp(
                body: ["username": "ana", "password": "first phrase"], installationId: nil, principal: .master
            ).user
            _ = try await LogIn(accounts: accounts, origin: .server).logIn(
                params: ["username": "ana", "password": "first phrase"], installationId: nil)
            now.withLock { $0 += 2 * 86_400_000 }
            await #expect(throws: ParseError(.objectNotFound, "Your password has expired. Please reset your password.")) {
                _ = try await LogIn(accounts: accounts, origin: .server).logIn(
                    params: ["username": "ana", "password": "first phrase"], installationId: nil)
            }
            await #expect(throws: ParseError(.objectNotFound, "Invalid username/password.")) {
                _ = try await LogIn(accounts: accounts, origin: .server).logIn(
                    params: ["username": "ana", "password": "wrong phrase"], installationId: nil)
            }
            _ = try await UserChanges(accounts: accounts, origin: .server).updateUser(
                user.objectId, body: ["password": "second phrase"], principal: .master, installationId: nil)
            _ = try await LogIn(accounts: accounts, origin: .server).logIn(
                params: ["username": "ana", "password": "second phrase"], installationId: nil)
        }
    }
}
