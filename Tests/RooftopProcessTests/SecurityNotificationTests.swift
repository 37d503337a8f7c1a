import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// Security notices, received by a real SMTP server: in the user's language,
/// with what the user needs to act and no secret, each one switchable off, bounded per user.
@Suite struct SecurityNotificationTests: LiveServerTest {
    static let phone = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
    static let laptop = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    /// Mail to `server` with every notice on (the mail-flow helper turns them off).
    func noticeSetup(_ server: SMTPTestServer, _ change: (inout SecurityNotificationSettings) -> Void = { _ in }) -> (
        AccountMail, AccountsConfiguration
    ) {
        var (mail, accounts) = mailSetup(server, verify: false)
        accounts.securityNotifications = SecurityNotificationSettings()
        change(&accounts.securityNotifications)
        return (mail, accounts)
    }

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    /// Signs `name` up (`name@example.com`, optionally from `device`): its id and session token.
    func signUp(
        _ client: any TestClientProtocol, _ name: String, locale: String? = nil, device: String? = nil
    ) async throws -> (id: String, token: String) {
        let localeField = locale.map { #","locale":"\#($0)""# } ?? ""
        let reply = try await call(
            client, .post, "/parse/users",
            body: #"{"username":"\#(name)","password":"old password 1","email":"\#(name)@example.com"\#(localeField)}"#,
            headers: device.map { ["X-Parse-Installation-Id": $0] } ?? [:])
        try #require(reply.status == 201, "\(reply.json)")
        return (try #require(reply.json["objectId"]?.stringValue), try #require(reply.json["sessionToken"]?.stringValue))
    }

    /// Saves `device`'s installation and logs `name` in from it: the session token.
    func logIn(_ client: any TestClientProtocol, _ name: String, from device: String, deviceName: String) async throws -> String {
        let installation = #"{"deviceType":"osx","deviceName":"\#(deviceName)","appName":"Todo","appVersion":"2.0"}"#
        let saved = try await call(client, .post, "/parse/installations", body: installation, headers: ["X-Parse-Installation-Id": device])
        #expect(saved.status == 201 || saved.status == 200)
        let login = try await call(
            client, .post, "/parse/login", body: #"{"username":"\#(name)","password":"old password 1"}"#, headers: ["X-Parse-Installation-Id": device]
        )
        return try #require(login.json["sessionToken"]?.stringValue, "\(login.json)")
    }

    /// The `n` first messages, readable (headers and decoded bodies), once they arrived and the
    /// queue is drained.
    func received(_ server: SMTPTestServer, _ n: Int, _ mail: AccountMail) async throws -> [String] {
        let arrived = try await server.waitForMessages(n)
        try #require(arrived.count >= n, "expected \(n) messages, got \(arrived.count)")
        await mail.queue.drain()
        return server.messages().map(FileOutbox.readable)
    }

    static func kind(_ message: String) -> String? {
        message.split(separator: "\n").first { $0.hasPrefix("X-Rooftop-Kind: ") }.map {
            String($0.dropFirst(16)).trimmingCharacters(in: .whitespaces)
        }
    }

    static func recipient(_ message: String) -> String? {
        message.split(separator: "\n").first { $0.hasPrefix("To: ") }.map { String($0.dropFirst(4)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func passwordChangesAreNoticedInTheUsersLanguage() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let ana = try await signUp(client, "ana", locale: "ja")
            let changed = try await call(
                client, .put, "/parse/users/\(ana.id)", body: #"{"password":"new password 22"}"#, headers: session(ana.token))
            let newToken = try #require(changed.json["sessionToken"]?.stringValue)
            var messages = try await received(server, 1, mail)
            #expect(messages.count == 1)  // the sign-up itself is no news
            #expect(Self.kind(messages[0]) == "password_changed" && Self.recipient(messages[0]) == "ana@example.com")
            #expect(messages[0].contains("パスワードが変更されました"))
            #expect(messages[0].contains("127.0.0.0/24"))
            #expect(messages[0].contains("\(publicURL)/apps/\(testAppId)/forgot_password"))
            for secret in [ana.token, newToken, "new password 22", "old password 1"] { #expect(!messages[0].contains(secret)) }

            // The reset through the emailed link (the hosted form) is noticed as well, in English
            // for a user without a locale.
            let bob = try await signUp(client, "bob")
            _ = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"bob@example.com"}"#)
            let (full, _) = try await link(server, message: 2)
            let token = String(full.split(separator: "=").last ?? "")
            let form = try await page(
                client, .post, "/parse/apps/\(testAppId)/request_password_reset", form: "token=\(token)&new_password=bobs+new+password")
            #expect(form.status == 200)
            messages = try await received(server, 3, mail)
            #expect(Self.kind(messages[2]) == "password_changed" && Self.recipient(messages[2]) == "bob@example.com")
            #expect(messages[2].contains("The password of your Todo account was changed"))
            for secret in [bob.token, token, "bobs new password", "bobs+new+password"] { #expect(!messages[2].contains(secret)) }
        }
    }

    @Test func emailChangesAreNoticedAtBothAddressesWithoutLeakingTheAccount() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let ana = try await signUp(client, "anastasia_k")
            let moved = try await call(
                client, .put, "/parse/users/\(ana.id)", body: #"{"email":"victim@example.org"}"#, headers: session(ana.token))
            #expect(moved.status == 200)
            let messages = try await received(server, 2, mail)
            let old = try #require(messages.first { Self.recipient($0) == "anastasia_k@example.com" })
            let new = try #require(messages.first { Self.recipient($0) == "victim@example.org" })
            // The old address hears where the account went, partly hidden, and can act.
            #expect(Self.kind(old) == "email_changed" && old.contains("v***@example.org") && !old.contains("victim@"))
            #expect(old.contains("127.0.0.0/24"))
            // The new address learns nothing of the account: no username, no old address.
            #expect(Self.kind(new) == "email_added")
            #expect(!new.contains("anastasia") && !new.contains("anastasia_k@example.com") && !new.contains(ana.token))
            #expect(new.contains("\(publicURL)/apps/\(testAppId)/forgot_password"))
            // Setting the same address again (in another case) is no change.
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"email":"Victim@Example.org"}"#, headers: session(ana.token))
            // The old address acts: for a day it can still ask for a reset link, which goes to
            // it (not to the new address); the reset signs the intruder's session out.
            let asked = try await page(client, .post, "/parse/apps/\(testAppId)/forgot_password", form: "email=anastasia_k%40example.com")
            #expect(asked.status == 200)
            let all = try await received(server, 3, mail)
            #expect(all.count == 3 && Self.recipient(all[2]) == "anastasia_k@example.com" && Self.kind(all[2]) == "password_reset")
            let (full, _) = try await link(server, message: 3)
            let token = String(full.split(separator: "=").last ?? "")
            let reset = try await page(
                client, .post, "/parse/apps/\(testAppId)/request_password_reset", form: "token=\(token)&new_password=taken+back+password")
            #expect(reset.status == 200)
            #expect(try await me(client, ana.token)["code"] == 209)
            let back = try await call(client, .post, "/parse/login", body: #"{"username":"anastasia_k","password":"taken back password"}"#)
            #expect(back.status == 200)
        }
    }

    @Test func aNewDeviceIsNoticedOnceAndKnownDevicesNever() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let ana = try await signUp(client, "ana", device: Self.phone)
            _ = try await logIn(client, "ana", from: Self.phone, deviceName: "Ana's iPhone")  // the sign-up's device
            let laptop = try await logIn(client, "ana", from: Self.laptop, deviceName: "Ana's MacBook")
            var messages = try await received(server, 1, mail)
            #expect(Self.kind(messages[0]) == "new_device" && Self.recipient(messages[0]) == "ana@example.com")
            #expect(messages[0].contains("Ana's MacBook (osx, Todo 2.0)") && messages[0].contains("127.0.0.0/24"))
            #expect(!messages[0].contains(laptop) && !messages[0].contains(ana.token) && !messages[0].contains("old password 1"))
            // Known now, even after signing out there.
            _ = try await call(client, .post, "/parse/logout", headers: session(laptop))
            _ = try await logIn(client, "ana", from: Self.laptop, deviceName: "Ana's MacBook")
            _ = try await logIn(client, "ana", from: Self.phone, deviceName: "Ana's iPhone")
            // Another user's mail marks the end: nothing else was sent to ana.
            let bob = try await signUp(client, "bob")
            _ = try await call(client, .put, "/parse/users/\(bob.id)", body: #"{"password":"bobs new password"}"#, headers: session(bob.token))
            messages = try await received(server, 2, mail)
            #expect(messages.count == 2 && Self.recipient(messages[1]) == "bob@example.com")
        }
    }

    @Test func aFloodOfNewDevicesQueuesABoundedNumberOfNotices() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server) { $0.maxPerUserPerHour = 3 }
        try await withServer(accounts: accounts, mail: mail) { client in
            _ = try await signUp(client, "ana", device: Self.phone)
            for index in 0..<8 {
                _ = try await logIn(client, "ana", from: UUID().uuidString.lowercased(), deviceName: "Device \(index)")
            }
            _ = try await received(server, 3, mail)
            let bob = try await signUp(client, "bob")
            _ = try await call(client, .put, "/parse/users/\(bob.id)", body: #"{"password":"bobs new password"}"#, headers: session(bob.token))
            let messages = try await received(server, 4, mail)
            #expect(messages.filter { Self.recipient($0) == "ana@example.com" }.count == 3)
            #expect(messages.count == 4)
        }
    }

    @Test func eachNoticeCanBeTurnedOff() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server) {
            $0.passwordChanged = false
            $0.newDevice = false
            $0.providerLinked = false
        }
        try await withServer(accounts: accounts, mail: mail) { client in
            let ana = try await signUp(client, "ana", device: Self.phone)
            _ = try await logIn(client, "ana", from: Self.laptop, deviceName: "Ana's MacBook")
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"password":"new password 22"}"#, headers: session(ana.token))
            // Still on: the email change, seen at both addresses, and nothing else.
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"new password 22"}"#)
            let token = try #require(login.json["sessionToken"]?.stringValue)
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"email":"ana2@example.com"}"#, headers: session(token))
            let messages = try await received(server, 2, mail)
            #expect(Set(messages.compactMap(Self.kind)) == ["email_changed", "email_added"])
        }
        let quiet = try SMTPTestServer()
        let (offMail, off) = noticeSetup(quiet) { $0 = .off }
        try await withServer(accounts: off, mail: offMail) { client in
            let ana = try await signUp(client, "ana")
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"email":"ana2@example.com"}"#, headers: session(ana.token))
            _ = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana2@example.com"}"#)
            let messages = try await received(quiet, 1, offMail)
            #expect(messages.count == 1 && Self.kind(messages[0]) == "password_reset")
        }
    }

    @Test func linkingAndUnlinkingASignInMethodIsNoticed() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail, clock: TestClock(), auth: idp.settings()) { client in
            let ana = try await signUp(client, "ana", locale: "ja-JP")
            let github = try await ProviderSignInTests.authData(idp, "github", "5001")
            #expect(
                try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"authData":\#(github)}"#, headers: session(ana.token)).status == 200)
            var messages = try await received(server, 1, mail)
            #expect(Self.kind(messages[0]) == "provider_linked" && messages[0].contains("github") && messages[0].contains("サインイン方法"))
            // Sending the linked provider's data again is no news; unlinking is.
            let again = try await ProviderSignInTests.authData(idp, "github", "5001")
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"authData":\#(again)}"#, headers: session(ana.token))
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"authData":{"github":null}}"#, headers: session(ana.token))
            messages = try await received(server, 2, mail)
            #expect(messages.count == 2 && Self.kind(messages[1]) == "provider_unlinked")
            for message in messages { #expect(!message.contains(ana.token) && !message.contains("access_token")) }
        }
    }

    @Test func anonymousAndEmailLessUsersGetNothing() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let anonymous = #"{"authData":{"anonymous":{"id":"9a0c0305-e82c-3301-4f89-11d33f2504e0"}}}"#
            #expect(try await call(client, .post, "/parse/users", body: anonymous, headers: ["X-Parse-Installation-Id": Self.phone]).status == 201)
            #expect(try await call(client, .post, "/parse/users", body: anonymous, headers: ["X-Parse-Installation-Id": Self.laptop]).status == 200)
            let plain = try await call(client, .post, "/parse/users", body: #"{"username":"carl","password":"old password 1"}"#)
            let carl = try #require(plain.json["objectId"]?.stringValue)
            let token = try #require(plain.json["sessionToken"]?.stringValue)
            _ = try await call(client, .put, "/parse/users/\(carl)", body: #"{"password":"new password 22"}"#, headers: session(token))
            let bob = try await signUp(client, "bob")
            _ = try await call(client, .put, "/parse/users/\(bob.id)", body: #"{"password":"bobs new password"}"#, headers: session(bob.token))
            let messages = try await received(server, 1, mail)
            #expect(messages.count == 1 && Self.recipient(messages[0]) == "bob@example.com")
        }
    }

    @Test func theResetRequestPageTheNoticesLinkToAnswersAlikeForAnyAddress() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            _ = try await signUp(client, "ana")
            let path = "/parse/apps/\(testAppId)/forgot_password"
            let form = try await page(client, .get, path, language: "ja")
            #expect(form.status == 200 && form.html.contains("type=\"email\"") && form.html.contains("パスワードの再設定"))
            let known = try await page(client, .post, path, form: "email=ana%40example.com")
            for hostile in [
                "email=nobody%40example.com", "email=ana%40example.com%00", "email[$ne]=x&email=%7B%22%24ne%22%3A1%7D",
                "email=" + String(repeating: "a", count: 5000),
            ] {
                let other = try await page(client, .post, path, form: hostile)
                #expect(other.status == known.status && other.html == known.html)
            }
            let messages = try await received(server, 1, mail)
            #expect(messages.count == 1 && Self.kind(messages[0]) == "password_reset" && Self.recipient(messages[0]) == "ana@example.com")
            #expect(try await page(client, .get, "/parse/apps/another-app/forgot_password").status == 404)
        }
    }

    /// The page is `/requestPasswordReset` by another route: its per-account limit counts both.
    @Test func theResetRequestPageSharesTheAPIsPerAccountLimit() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = noticeSetup(server)
        let rule = RateLimiter.Rule(path: "/requestPasswordReset", count: 3, window: 600_000, zone: .account)
        try await withServer(configure: { _, http in http.rateLimits = [rule] }, accounts: accounts, mail: mail) { client in
            let path = "/parse/apps/\(testAppId)/forgot_password"
            #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#).status == 200)
            #expect(try await page(client, .post, path, form: "email=ana%40example.com").status == 200)
            #expect(try await page(client, .post, path, form: "email=ANA%40example.com").status == 200)
            let refused = try await page(client, .post, path, form: "email=ana%40example.com")
            #expect(refused.status == 429 && refused.html.contains("Too many attempts"))
            #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"ana@example.com"}"#).status == 429)
            #expect(try await page(client, .post, path, form: "email=bob%40example.com").status == 200)
        }
    }
}
