import Foundation
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A passkey registered and used in a real headless Chromium (`Tests/Support/passkey_browser.py`)
/// on the hosted passkey page: Chromium's virtual authenticator makes the credential, and
/// Chromium itself writes the client data (origin, challenge) the server checks. The server runs
/// on a port chosen first, so its allowed origin (`http://localhost:PORT`) can name it.
@Suite struct PasskeyBrowserTests {
    @Test func chromiumRegistersAPasskeyAndSignsInWithIt() async throws {
        let port = try Loopback.freePort()
        var accounts = AccountsConfiguration()
        accounts.passkeys.relyingPartyId = "localhost"
        accounts.passkeys.origins = ["http://localhost:\(port)"]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-passkey-browser-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let opened = try await TestStores.open(in: directory)
        let (bound, task) = try await ClusterNodes.serve(opened.store, accounts: accounts, port: port)
        let api = "http://127.0.0.1:\(bound)/parse"
        func rest(_ method: String, _ path: String, body: String? = nil, token: String? = nil, master: Bool = false) async throws -> JSON {
            var request = URLRequest(url: try #require(URL(string: api + path)))
            request.httpMethod = method
            request.setValue(testAppId, forHTTPHeaderField: "X-Parse-Application-Id")
            if let token { request.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
            if master { request.setValue(testMasterKey, forHTTPHeaderField: "X-Parse-Master-Key") }
            request.httpBody = body.map { Data($0.utf8) }
            return try JSONParser.parse(try await URLSession.shared.data(for: request).0)
        }
        do {
            try #require(bound == port)
            let token = try #require(
                try await rest("POST", "/users", body: #"{"username":"ana","password":"ana password 1"}"#)["sessionToken"]?.stringValue)
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
            let listed = try await rest("GET", "/users/me/passkeys", token: token)
            let passkey = try #require(listed["results"]?.arrayValue?.first)
            #expect(passkey["name"] == "Chromium" && passkey["lastUsedAt"]?.stringValue != nil, "\(listed)")
            let sessions = try await rest("GET", "/classes/_Session", master: true)["results"]?.arrayValue ?? []
            #expect(sessions.filter { $0["createdWith"]?["authProvider"] == "passkey" }.count == 1, "\(sessions)")
            let logins = try await rest("GET", "/classes/_Audit?where=%7B%22type%22:%22login%22,%22detail%22:%22passkey%22%7D", master: true)
            #expect(logins["results"]?.arrayValue?.count == 2, "\(logins)")
        } catch {
            task.cancel()
            await opened.close()
            throw error
        }
        task.cancel()
        _ = try? await task.value
        await opened.close()
    }
}
