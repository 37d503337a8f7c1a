import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The console in a real headless Chromium (`Tests/Support/console_browser.py`): an owner signs
/// in with the keyboard, finds a user, revokes one of their sessions (the app's next call with
/// it answers 209), sends a reset mail (it arrives over SMTP) and reads the audit entries those
/// actions wrote with the admin's name. Screenshots of every page at desktop and phone sizes, in
/// English and Japanese, land in `.build/console-screenshots/`.
@Suite struct ConsoleBrowserTests: LiveServerTest {
    static let screenshots = SMTPTestServer.root.appendingPathComponent(".build/console-screenshots")

    @Test func anOwnerFixesAUserInABrowser() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        let stores = StoreBox()
        try await withServer(accounts: accounts, mail: mail, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            let older = try #require(signup.json["sessionToken"]?.stringValue)
            let login = try await call(
                client, .post, "/parse/login", body: #"{"username":"ana","password":"ana password 1"}"#,
                headers: ["X-Parse-Installation-Id": "7d6e4c2a-1111-4222-8333-944455556666"])
            let newer = try #require(login.json["sessionToken"]?.stringValue)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser.py").path, "http://127.0.0.1:\(port)/console",
                    "ops", "console passphrase 1", "ana", Self.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["login_en"] == "Sign in")
            #expect(seen["login_ja"] == "サインイン")
            #expect(seen["cookie"]?["httpOnly"] == true)
            #expect(seen["cookie"]?["sameSite"] == "Strict")
            #expect(seen["cookie"]?["path"] == "/console")
            #expect(seen["cookie"]?["secure"] == false)
            #expect(seen["sessions_before"] == 2)
            #expect(seen["sessions_after"] == 1)
            #expect(seen["revoke_notice"] == "The session was revoked.")
            #expect(seen["reset_notice"] == "A password reset mail was sent.")
            #expect(seen["delete_enabled_before_typing"] == false)
            #expect(seen["delete_enabled_after_typing"] == true)
            #expect(seen["users_ja"] == "ユーザー")
            #expect(seen["user_ja_sessions"] == "セッション")
            #expect(seen["audit_ja"] == "監査ログ")
            #expect(seen["status_ja"] == "状態")
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 20)
            // The newest session (first in the list) was revoked: its next call is refused.
            #expect(try await me(client, newer)["code"] == 209)
            #expect(try await me(client, older)["username"] == "ana")
            // The reset mail arrived over SMTP, with a working link.
            let (_, path) = try await link(server, message: 1)
            #expect(path.contains("request_password_reset"))
            // The audit log names the admin for each action.
            for type in ["session.revoked", "password.reset.sent", "admin.login"] {
                let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22\(type)%22%7D", master: true)
                let event = try #require(events.json["results"]?.arrayValue?.first, "\(type)")
                #expect(event["admin"] == "ops", "\(type)")
                if type != "admin.login" { #expect(event["userId"]?.stringValue == userId) }
            }
            let rows = seen["audit_rows"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(rows.contains { $0.contains("session.revoked") && $0.contains("ops") })
        }
    }
}
