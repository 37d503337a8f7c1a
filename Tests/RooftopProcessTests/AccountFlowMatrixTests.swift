import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// Sign-up, verification, login, password change, lockout and the hosted reset form under the
/// options that change them: password history, lockout, verification required, owner-only
/// default ACLs. (The hosted reset once failed with 119 whenever `maxPasswordHistory` was set.)
@Suite struct AccountFlowMatrixTests: LiveServerTest {
    struct Options: Sendable, CustomTestStringConvertible {
        var history = 0
        var lockout = false
        var verifyRequired = false
        var ownerACL = false
        var testDescription: String { "history \(history), lockout \(lockout), verify \(verifyRequired), owner ACL \(ownerACL)" }
    }

    static let combinations: [Options] = [
        Options(), Options(history: 3), Options(history: 3, lockout: true), Options(history: 1, verifyRequired: true),
        Options(lockout: true, verifyRequired: true, ownerACL: true), Options(history: 5, lockout: true, verifyRequired: true, ownerACL: true),
    ]

    func login(_ client: any TestClientProtocol, _ password: String) async throws -> Reply {
        try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"\#(password)"}"#)
    }

    @Test(arguments: combinations)
    func flows(_ options: Options) async throws {
        let server = try SMTPTestServer()
        let (mail, defaults) = mailSetup(server, verify: options.verifyRequired)
        var accounts = defaults
        accounts.preventLoginWithUnverifiedEmail = options.verifyRequired
        accounts.passwordPolicy.maxPasswordHistory = options.history
        if options.lockout { accounts.lockout = .init(threshold: 3, duration: 600, unlockOnPasswordReset: true) }
        let owner = options.ownerACL
        try await withServer(
            configure: { services, _ in if owner { services.defaultACL = ["*": .owner] } }, accounts: accounts, mail: mail
        ) { (client: any TestClientProtocol) async throws in
            var messages = 0
            let created = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"old password 1","email":"ana@example.com"}"#)
            #expect(created.status == 201, "\(created.json)")
            let id = try #require(created.json["objectId"]?.stringValue)
            if options.verifyRequired {
                #expect(created.json["sessionToken"] == nil)
                #expect(try await login(client, "old password 1").json["code"] == 205)
                messages += 1
                let verify = try await page(client, .get, try await link(server, message: messages).path)
                #expect(verify.status == 200, "\(verify.html)")
            }
            #expect(try await login(client, "old password 1").status == 200)
            let action = "/parse/apps/\(testAppId)/request_password_reset"

            // A reset through the hosted form before any other password change: it is the
            // first write of `_password_history` (the 119 this suite was written for).
            func resetLink() async throws -> String {
                #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#).json == [:])
                messages += 1
                let (full, path) = try await link(server, message: messages)
                #expect(try await page(client, .get, path).status == 200)
                return String(full.split(separator: "=").last ?? "")
            }
            func post(_ token: String, _ password: String) async throws -> (status: Int, html: String) {
                let reply = try await page(
                    client, .post, action, form: "token=\(token)&new_password=\(password.replacingOccurrences(of: " ", with: "+"))")
                return (reply.status, reply.html)
            }
            let firstToken = try await resetLink()
            if options.history > 0 {
                let reused = try await post(firstToken, "old password 1")
                #expect(reused.status == 400 && reused.html.contains("last \(options.history)"), "\(reused.html)")
            }
            #expect(try await post(firstToken, "reset password 3%00x").status == 400)
            let done = try await post(firstToken, "reset password 3")
            #expect(done.status == 200 && done.html.contains("Password changed"), "\(done.status) \(done.html)")
            #expect(try await post(firstToken, "another password 4").status == 400)  // the link is spent
            #expect(try await login(client, "old password 1").status == 404)
            let first = try await login(client, "reset password 3")
            #expect(first.status == 200, "\(first.json)")
            let session = ["X-Parse-Session-Token": try #require(first.json["sessionToken"]?.stringValue)]

            // Password change through the API.
            let changed = try await call(client, .put, "/parse/users/\(id)", body: #"{"password":"changed password 2"}"#, headers: session)
            #expect(changed.status == 200, "\(changed.json)")
            let newSession = ["X-Parse-Session-Token": try #require(changed.json["sessionToken"]?.stringValue)]
            let back = try await call(client, .put, "/parse/users/\(id)", body: #"{"password":"reset password 3"}"#, headers: newSession)
            #expect(back.status == (options.history >= 2 ? 400 : 200), "\(back.json)")
            let current = options.history >= 2 ? "changed password 2" : "reset password 3"

            if options.lockout {
                for _ in 0..<3 { #expect(try await login(client, "wrong password").json["code"] == 101) }
                #expect(try await login(client, current).json["error"]?.stringValue?.hasPrefix("Your account is locked") == true)
            }

            // A second reset (unlocking, with `unlockOnPasswordReset`).
            let secondToken = try await resetLink()
            if options.history > 0 {
                #expect(try await post(secondToken, current).status == 400)
            }
            #expect(try await post(secondToken, "final password 5").status == 200)
            #expect(try await login(client, "final password 5").status == 200)
            #expect(try await login(client, current).status == 404)
        }
    }
}
