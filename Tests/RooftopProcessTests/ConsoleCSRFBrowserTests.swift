import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Login CSRF by cookie tossing, in a real headless Chromium (`Tests/Support/console_browser_csrf.py`):
/// a page on another port of the same host sets the sign-in cookie to a real token the attacker
/// fetched and posts the attacker's name and password. The browser must not end up signed in to
/// the attacker's console account. The honest sign-in, from a name that is not loopback over
/// plain http, works and warns that the connection is not encrypted.
@Suite struct ConsoleCSRFBrowserTests: LiveServerTest {
    @Test func aTossedCookieSignsTheBrowserIntoNothing() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "mallory", password: "attacker passphrase 1", role: .owner, totp: false)
            try await admins.create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_csrf.py").path, String(port), "mallory",
                    "attacker passphrase 1", "ops", "console passphrase 1",
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["token_matches_cookie"] == true, "the attack used a real token of ours: \(seen)")
            #expect(seen["attack_session_cookie"] == false, "\(seen)")
            #expect(seen["after_attack_signed_in_as_attacker"] == false, "\(seen)")
            #expect(seen["attack_page"]?.stringValue?.contains("sent from another site") == true, "\(seen)")
            #expect(seen["plain_http_notice"]?.stringValue?.contains("not encrypted") == true, "\(seen)")
            #expect(seen["honest_signed_in"] == true, "\(seen)")
            #expect(seen["loopback_notice"] == .null, "no warning on the machine itself: \(seen)")
            let logins = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.login%22%7D", master: true)
            #expect(logins.json["results"]?.arrayValue?.map { $0["detail"] } == ["ops"], "\(logins.json)")
        }
    }
}
