import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// The console's sign-in against the outside findings: form tokens only the server makes, POSTs
/// from the console's own origin only, and a lockout that names no admin.
@Suite struct ConsoleSignInTests: LiveServerTest {
    let password = "console passphrase 1"

    /// The sign-in form's token must be one the server made (signed, for an hour), not merely the
    /// same in cookie and form: a sibling site that can set the cookie can't make one. Every
    /// console POST must also come from the console's own origin when the browser says where it
    /// came from.
    @Test func signInFormTokensAreTheServersAndPostsSameOrigin() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            func post(_ token: String, headers: [String: String] = [:]) async throws -> ConsolePage {
                try await consoleRequest(
                    client, .post, "/console/login", cookies: ["rooftop_console_login": token],
                    form: ["csrf": token, "name": "ops", "password": password],
                    headers: headers)
            }
            // Made up, equal in cookie and form: the old double-submit check took it.
            for forged in ["0123456789abcdef", "9999999999.x.\(String(repeating: "0", count: 64))", "", "a.b.c"] {
                let page = try await post(forged)
                #expect(page.status == 403 && page.setCookie("rooftop_console") == nil, "\(forged)")
            }
            // A real token, an hour later: expired.
            let form = try await consoleRequest(client, .get, "/console/login")
            let token = try #require(form.hidden("csrf"))
            clock.advance(by: .seconds(3601))
            #expect(try await post(token).status == 403)
            // Fresh, but sent from another origin, as the browser says.
            let fresh = try #require(try await consoleRequest(client, .get, "/console/login").hidden("csrf"))
            let crossOrigin: [[String: String]] = [
                ["Sec-Fetch-Site": "same-site"], ["Sec-Fetch-Site": "cross-site"], ["Origin": "http://127.0.0.1:9"], ["Origin": "null"],
                ["Origin": "http://evil.example"], ["Sec-Fetch-Site": "same-site", "Origin": "http://localhost"],
            ]
            for headers in crossOrigin {
                // The test client's requests carry `Host: localhost`.
                let page = try await post(fresh, headers: headers)
                #expect(page.status == 403 && page.html.contains("another site"), "\(headers)")
            }
            let admin = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.login%22%7D", master: true)
            #expect(admin.json["results"]?.arrayValue?.isEmpty == true)
            // The console's own pages, as a browser sends them: signed in.
            for headers in [["Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"], ["Origin": "http://localhost"], [:]] {
                let (session, page) = try await consoleSignIn(client, "ops", password, headers: headers)
                #expect(session != nil, "\(headers): \(page.status)")
                // Every POST of a session is held to the same rule.
                let cookies = ["rooftop_console": try #require(session)]
                let csrf = try await consoleCSRF(client, session: try #require(session))
                let refused = try await consoleRequest(
                    client, .post, "/console/logout", cookies: cookies, form: ["csrf": csrf], headers: ["Sec-Fetch-Site": "same-site"])
                #expect(refused.status == 403)
                #expect(try await consoleRequest(client, .get, "/console/users", cookies: cookies).status == 200, "still signed in")
            }
        }
    }

    /// Five wrong passwords lock a real admin; an unknown name never locks. The page must not
    /// tell them apart, or it names the console's admins.
    @Test func lockoutDoesNotNameAdmins() async throws {
        let stores = StoreBox()
        var console = ConsoleConfiguration()
        console.lockoutThreshold = 3
        console.loginAttemptsPerMinute = 100
        try await withServer(wrap: stores.keep, console: console) { client in
            try await consoleAdmins(try stores.store, threshold: 3).create(name: "ops", password: password, role: .owner, totp: false)
            func answer(_ name: String, _ guess: String) async throws -> (Int, String) {
                let page = try await consoleSignIn(client, name, guess).page
                let error = page.html.range(of: #"class="error"[^>]*>[^<]*"#, options: .regularExpression).map { String(page.html[$0]) }
                return (page.status, error ?? "")
            }
            for _ in 0..<3 {
                _ = try await answer("ops", "wrong password")
                _ = try await answer("ghost", "wrong password")
            }
            let real = try await answer("ops", "wrong password")
            let unknown = try await answer("ghost", "wrong password")
            #expect(real.0 == 401 && real == unknown, "\(real) vs \(unknown)")
            #expect(!real.1.isEmpty)
            // The right password of the locked admin says the same too.
            #expect(try await answer("ops", password) == unknown)
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.lockout%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.count == 1, "the audit log still tells")
        }
    }

    /// Before the first admin, the sign-in page says how to create one, in the page's language;
    /// once one exists it says nothing of it.
    @Test func signInPageSaysHowToCreateTheFirstAdmin() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let english = try await consoleRequest(client, .get, "/console/login")
            #expect(english.status == 200)
            #expect(
                english.html.contains(
                    #"<p class="notice" id="no-admin">The console has no admin yet. Create the first one on the server with "#
                        + "<code>rooftop admin create NAME</code> (with the --data-dir or --config rooftop serve was started with; "
                        + "it asks for a password), then sign in here.</p>"))
            let japanese = try await consoleRequest(client, .get, "/console/login?lang=ja")
            #expect(japanese.html.contains("コンソールの管理者はまだいません。") && japanese.html.contains("<code>rooftop admin create NAME</code>"))
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let later = try await consoleRequest(client, .get, "/console/login")
            #expect(later.status == 200 && !later.html.contains("no-admin") && !later.html.contains("admin create"))
        }
    }
}
