import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

/// A second factor's removal in a real headless Chromium
/// (`Tests/Support/console_browser_second_factor.py`): the owner follows "Remove second factor",
/// the button stays disabled until the username is typed exactly, and the user's page then says
/// "off". Screenshots of the confirmation page land next to `ConsoleBrowserTests`'.
@Suite struct ConsoleSecondFactorBrowserTests: LiveServerTest {
    @Test func anOwnerRemovesASecondFactorInABrowser() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"anabel","password":"ana password 1"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
            let code = TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / 30)
            let body = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(secret))","token":"\#(code)"}}}"#
            #expect(try await call(client, .put, "/parse/users/\(userId)", body: body, headers: ["X-Parse-Session-Token": token]).status == 200)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_second_factor.py").path,
                    "http://127.0.0.1:\(port)/console", "ops", "console passphrase 1", userId, "anabel", ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["heading_ja"] == "二要素認証を解除")
            #expect(seen["state_before"] == "on (10 recovery codes left)")
            #expect(seen["heading"] == "Remove second factor")
            #expect(seen["enabled_empty"] == false && seen["enabled_partial"] == false && seen["enabled_typed"] == true)
            #expect(seen["notice"] == "The second factor was removed.")
            #expect(seen["state_after"] == "off" && seen["removal_offered_after"] == false)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"anabel","password":"ana password 1"}"#)
            #expect(login.status == 200, "the password alone signs in again")
            #expect(seen["page_overflow"]?["user-second-factor-en"] == false && seen["page_overflow"]?["user-second-factor-ja"] == false)
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 4)
        }
    }
}
