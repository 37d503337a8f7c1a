import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// A passkey registered and used in a real headless Chromium (`Tests/Support/passkey_browser.py`)
/// on the hosted passkey page: Chromium's virtual authenticator makes the credential, and
/// Chromium itself writes the client data (origin, challenge) the server checks.
@Suite struct PasskeyBrowserTests: LiveServerTest {
    @Test func chromiumRegistersAPasskeyAndSignsInWithIt() async throws {
        let port = try Loopback.freePort()
        var accounts = AccountsConfiguration()
        accounts.passkeys.relyingPartyId = "localhost"
        accounts.passkeys.origins = ["http://localhost:\(port)"]
        try await withServer(accounts: accounts, port: port) { client in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/passkey_browser.py").path,
                    "http://localhost:\(port)/parse", testAppId, "ana", "ana password 1", ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["title"]?.stringValue == "Passkeys · \(testAppId)" && seen["form_shown"] == true, "\(seen)")
            #expect(seen["after_password"] == "Signed in as ana")
            #expect(seen["listed"] == ["Chromium"] && seen["credentials"] == 1 && seen["resident"] == true)
            #expect(seen["usernameless"] == "Signed in as ana" && seen["with_username"] == "Signed in as ana")
            #expect(seen["page_overflow"]?["passkeys-en"] == false)
            // The server agrees: one passkey, used; two sign-ins by it, the first signed out.
            let listed = try await call(client, .get, "/parse/users/me/passkeys", headers: ["X-Parse-Session-Token": token])
            let passkey = try #require(listed.json["results"]?.arrayValue?.first)
            #expect(passkey["name"] == "Chromium" && passkey["lastUsedAt"]?.stringValue != nil, "\(listed.json)")
            let sessions = try await call(client, .get, "/parse/classes/_Session", master: true).json["results"]?.arrayValue ?? []
            #expect(sessions.filter { $0["createdWith"]?["authProvider"] == "passkey" }.count == 1, "\(sessions)")
            let logins = try await call(
                client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22login%22,%22detail%22:%22passkey%22%7D", master: true)
            #expect(logins.json["results"]?.arrayValue?.count == 2, "\(logins.json)")
        }
    }
}
