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

/// The console's security model over real HTTP against a real database: cookies, CSP, CSRF,
/// roles, timeouts on the controllable clock, the login rate limit and lockout, TOTP and the
/// address allow-list.
@Suite struct ConsoleSecurityTests: LiveServerTest {
    let password = "console passphrase 1"

    @Test func signInSetsStrictCookiesAndHeaders() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let login = try await consoleRequest(client, .get, "/console")
            #expect(login.status == 303)
            #expect(login.headers[.location] == "/console/login")
            let (session, answer) = try await consoleSignIn(client, "ops", password)
            #expect(answer.status == 303)
            #expect(answer.headers[.location] == "/console/users")
            let cookie = try #require(answer.setCookie("rooftop_console"))
            #expect(cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Strict") && cookie.contains("; Path=/console"))
            #expect(!cookie.contains("Secure"), "plain HTTP: a Secure cookie would never come back")
            let page = try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": try #require(session)])
            #expect(page.status == 200)
            #expect(page.html.contains("ops"))
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-inline"))
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(!page.html.contains("<script>"), "no inline script")
            for asset in ["console.css", "console.js"] {
                let served = try await consoleRequest(client, .get, "/console/assets/\(asset)")
                #expect(served.status == 200)
                #expect(served.headers[.cacheControl] == "no-store")
            }
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.login%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.first?["admin"] == "ops")
        }
    }

    @Test func cookiesAreSecureBehindHTTPS() async throws {
        let stores = StoreBox()
        try await withServer(configure: { _, http in http.publicURL = "https://api.example.com/parse" }, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let (session, answer) = try await consoleSignIn(client, "ops", password)
            // `__Host-`: Secure, the whole origin, no Domain, so no sibling subdomain or plain-http
            // page can set it.
            let cookie = try #require(answer.setCookie("__Host-rooftop_console"))
            #expect(cookie.hasSuffix("; Secure") && cookie.contains("; Path=/;") && !cookie.contains("Domain"))
            #expect(answer.setCookie("rooftop_console") == nil)
            let page = try await consoleRequest(client, .get, "/console/users", cookies: ["__Host-rooftop_console": try #require(session)])
            #expect(page.status == 200 && page.html.contains("ops"))
            // The same session under the name anyone can toss in counts for nothing over HTTPS.
            let tossed = try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": try #require(session)])
            #expect(tossed.status == 303 && tossed.headers[.location] == "/console/login")
        }
    }

    @Test func readOnlyAdminIsRefusedEveryChange() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "viewer", password: password, role: .readOnly, totp: false)
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let sessions = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": token])
            let sessionId = try #require(sessions.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let session = try #require(try await consoleSignIn(client, "viewer", password).session)
            let page = try await consoleRequest(client, .get, "/console/users/\(userId)", cookies: ["rooftop_console": session])
            #expect(page.status == 200)
            #expect(!page.html.contains("method=\"post\" action=\"/console/users/\(userId)/"), "no action forms for a read-only admin")
            let csrf = try #require(page.hidden("csrf"), "the sign-out form still carries the token")
            for action in ["verify", "reset", "unlock", "revoke-all", "delete", "sessions/\(sessionId)/revoke"] {
                let refused = try await consoleRequest(
                    client, .post, "/console/users/\(userId)/\(action)", cookies: ["rooftop_console": session],
                    form: ["csrf": csrf, "confirm": "ana"])
                #expect(refused.status == 403, "\(action)")
            }
            #expect(try await me(client, token)["username"] == "ana")
        }
    }

    @Test func postsWithoutTheSessionsCSRFTokenAreRefused() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "ops", password: password, role: .owner, totp: false)
            try await admins.create(name: "other", password: password, role: .owner, totp: false)
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let otherSession = try #require(try await consoleSignIn(client, "other", password).session)
            let othersToken = try await consoleCSRF(client, session: otherSession)
            let mine = try await consoleCSRF(client, session: session)
            for form in [[:], ["csrf": ""], ["csrf": "wrong"], ["csrf": othersToken], ["csrf": mine + "x"], ["csrf": String(mine.dropLast())]] {
                let refused = try await consoleRequest(
                    client, .post, "/console/users/\(userId)/revoke-all", cookies: ["rooftop_console": session], form: form)
                #expect(refused.status == 403)
            }
            #expect(try await me(client, token)["username"] == "ana", "nothing was revoked")
            // Without the cookie, a right token is worth nothing either.
            #expect(try await consoleRequest(client, .post, "/console/users/\(userId)/revoke-all", form: ["csrf": mine]).status == 403)
            let done = try await consoleRequest(
                client, .post, "/console/users/\(userId)/revoke-all", cookies: ["rooftop_console": session], form: ["csrf": mine])
            #expect(done.status == 200)
            #expect(try await me(client, token)["code"] == 209)
        }
    }

    @Test func sessionsEndAfterIdleAndAbsoluteTimeouts() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        var console = ConsoleConfiguration()
        console.idleTimeout = 600
        console.absoluteTimeout = 3600
        try await withServer(clock: clock, wrap: stores.keep, console: console) { client in
            try await consoleAdmins(try stores.store, clock: clock).create(name: "ops", password: password, role: .owner, totp: false)
            let idle = try #require(try await consoleSignIn(client, "ops", password).session)
            clock.advance(by: .seconds(599))
            #expect(try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": idle]).status == 200)
            clock.advance(by: .seconds(601))
            let ended = try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": idle])
            #expect(ended.status == 303)
            #expect(ended.headers[.location] == "/console/login")
            let busy = try #require(try await consoleSignIn(client, "ops", password).session)
            for _ in 0..<6 {
                clock.advance(by: .seconds(590))
                #expect(try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": busy]).status == 200)
            }
            clock.advance(by: .seconds(100))
            #expect(try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": busy]).status == 303)
            // Logout ends a session at once.
            let other = try #require(try await consoleSignIn(client, "ops", password).session)
            let csrf = try await consoleCSRF(client, session: other)
            #expect(
                try await consoleRequest(client, .post, "/console/logout", cookies: ["rooftop_console": other], form: ["csrf": csrf]).status == 303)
            #expect(try await consoleRequest(client, .get, "/console/users", cookies: ["rooftop_console": other]).status == 303)
        }
    }

    @Test func loginIsRateLimitedPerAddress() async throws {
        let stores = StoreBox()
        var console = ConsoleConfiguration()
        console.loginAttemptsPerMinute = 3
        try await withServer(wrap: stores.keep, console: console) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            for _ in 0..<3 { #expect(try await consoleSignIn(client, "nobody", "guess").page.status == 401) }
            let limited = try await consoleSignIn(client, "ops", password)
            #expect(limited.page.status == 429)
            #expect(limited.session == nil)
            #expect(limited.page.headers[.retryAfter] != nil)
        }
    }

    @Test func repeatedFailuresLockTheAdmin() async throws {
        let stores = StoreBox()
        var console = ConsoleConfiguration()
        console.lockoutThreshold = 3
        try await withServer(wrap: stores.keep, console: console) { client in
            try await consoleAdmins(try stores.store, threshold: 3).create(name: "ops", password: password, role: .owner, totp: false)
            for _ in 0..<3 { #expect(try await consoleSignIn(client, "ops", "wrong password").session == nil) }
            let locked = try await consoleSignIn(client, "ops", password)
            #expect(locked.session == nil)
            #expect(locked.page.html.contains("locked"))
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22admin.lockout%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.first?["detail"] == "ops")
            try await consoleAdmins(try stores.store).resetPassword("ops", to: "a new console passphrase")
            #expect(try await consoleSignIn(client, "ops", "a new console passphrase").session != nil, "reset-password unlocks")
        }
    }

    @Test func totpCodesAreCheckedAndGoodOnce() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let secret = try #require(try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: true))
            let code = TOTP.code(secret: secret, step: TOTP.step(atSeconds: Int64(Date().timeIntervalSince1970)))
            #expect(try await consoleSignIn(client, "ops", password).session == nil, "no code")
            let wrong = code == "000000" ? "000001" : "000000"
            #expect(try await consoleSignIn(client, "ops", password, code: wrong).session == nil)
            #expect(try await consoleSignIn(client, "ops", "wrong password", code: code).session == nil)
            #expect(try await consoleSignIn(client, "ops", password, code: code).session != nil)
            #expect(try await consoleSignIn(client, "ops", password, code: code).session == nil, "a code is good once")
        }
    }

    @Test func addressesOutsideTheAllowListAreRefused() async throws {
        var console = ConsoleConfiguration()
        console.allowedAddresses = ["10.0.0.0/8"]
        try await withServer(console: console) { client in
            let refused = try await consoleRequest(client, .get, "/console/login")
            #expect(refused.status == 403)
            #expect(!refused.html.contains("password"))
            // A forged X-Forwarded-For from an untrusted peer changes nothing.
            #expect(try await consoleRequest(client, .get, "/console/login", headers: ["X-Forwarded-For": "10.1.2.3"]).status == 403)
        }
        var open = ConsoleConfiguration()
        open.allowedAddresses = ["127.0.0.0/8", "::1"]
        try await withServer(console: open) { client in
            let status = try await consoleRequest(client, .get, "/console/login").status
            #expect(status == 200)
        }
    }

    @Test func aTurnedOffConsoleIsNotThere() async throws {
        var console = ConsoleConfiguration()
        console.enabled = false
        try await withServer(console: console) { client in
            let status = try await consoleRequest(client, .get, "/console/login").status
            #expect(status == 404)
        }
    }

    @Test func aConsoleInsideTheAPIsPathIsOff() async throws {
        var console = ConsoleConfiguration()
        console.path = "/parse/console"
        try await withServer(console: console) { client in
            let answer = try await consoleRequest(client, .get, "/parse/console/login")
            #expect(!answer.html.contains("<form"), "the API answers, not a console hiding its routes")
        }
    }

    @Test func hostileInputIsEscapedAndBounded() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"<script>alert(1)</script>","password":"ana password 1"}"#)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            for query in ["%3Cscript%3Ealert(1)%3C%2Fscript%3E", "%00", "%7B%22%24ne%22%3Anull%7D", String(repeating: "a", count: 5000)] {
                let page = try await consoleRequest(client, .get, "/console/users?q=\(query)", cookies: ["rooftop_console": session])
                #expect(page.status == 200)
                #expect(!page.html.contains("<script>alert"))
            }
            let found = try await consoleRequest(
                client, .get, "/console/users?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", cookies: ["rooftop_console": session])
            #expect(found.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;</a>"))
            // An operator object where a name belongs finds nothing (it is a plain string).
            let operatorQuery = try await consoleRequest(
                client, .get, "/console/users?q=%7B%22%24ne%22%3Anull%7D", cookies: ["rooftop_console": session])
            #expect(!operatorQuery.html.contains("/console/users/"))
            let unknown = try await consoleRequest(client, .get, "/console/users/%00%27", cookies: ["rooftop_console": session])
            #expect(unknown.status == 404)
            let forged = try await consoleSignIn(client, "ops\u{0}", password)
            #expect(forged.session == nil)
            let huge = try await consoleRequest(
                client, .post, "/console/login", form: ["csrf": "x", "name": String(repeating: "n", count: 100_000)])
            #expect(huge.status == 413 || huge.status == 403)
        }
    }
}

/// The audit log page: filters and paging by the `createdAt` index.
@Suite struct ConsoleAuditPageTests: LiveServerTest {
    @Test func filtersAndPagesWithoutLosingOrRepeatingEvents() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .readOnly, totp: false)
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            for _ in 0..<57 { _ = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong"}"#) }
            let session = try #require(try await consoleSignIn(client, "ops", "console passphrase 1").session)
            var uri: String? = "/console/audit?event=login.failed&user=\(userId)"
            var rows = 0
            var pages = 0
            while let next = uri, pages < 5 {
                let page = try await consoleRequest(client, .get, next, cookies: ["rooftop_console": session])
                #expect(page.status == 200)
                rows += page.html.components(separatedBy: "<code>login.failed</code>").count - 1
                #expect(!page.html.contains("<code>signup</code>"), "the event filter holds on every page")
                uri = page.html.range(of: "href=\"/console/audit?").map { range in
                    "/console/audit?" + String(page.html[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
                }
                pages += 1
            }
            #expect(pages == 2)
            #expect(rows == 57)
            let everything = try await consoleRequest(client, .get, "/console/audit", cookies: ["rooftop_console": session])
            #expect(everything.html.contains("<code>signup</code>") || everything.html.contains("<code>admin.login</code>"))
            let future = try await consoleRequest(client, .get, "/console/audit?since=2999-01-01T00:00", cookies: ["rooftop_console": session])
            #expect(!future.html.contains("<code>"))
            let hostile = try await consoleRequest(
                client, .get, "/console/audit?user=%7B%22%24ne%22%3A1%7D&event=%3Cx%3E&ip=%00&after=junk~%00&since=nonsense",
                cookies: ["rooftop_console": session])
            #expect(hostile.status == 200)
        }
    }
}

/// An owner's fixes over hand-made requests: unlock, a typed confirmation before delete, a
/// session that is not the user's refused, and the console's login limit apart from the API's.
@Suite struct ConsoleOwnerActionTests: LiveServerTest {
    @Test func ownersUnlockAndDeleteWithATypedConfirmation() async throws {
        let stores = StoreBox()
        var accounts = AccountsConfiguration()
        accounts.lockout = .init(threshold: 2, duration: 600)
        try await withServer(accounts: accounts, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let ana = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let bob = try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"bob password 1"}"#)
            let bobToken = try #require(bob.json["sessionToken"]?.stringValue)
            let bobSessions = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": bobToken])
            let bobSession = try #require(bobSessions.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            for _ in 0..<3 { _ = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong"}"#) }
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"ana password 1"}"#).status == 404)
            let session = try #require(try await consoleSignIn(client, "ops", "console passphrase 1").session)
            let cookies = ["rooftop_console": session]
            let csrf = try await consoleCSRF(client, session: session)
            let page = try await consoleRequest(client, .get, "/console/users/\(anaId)", cookies: cookies)
            #expect(page.html.contains("locked until"))
            // The owner is offered the delete form, asking for the username to be typed.
            #expect(page.html.contains("action=\"/console/users/\(anaId)/delete\"") && page.html.contains("data-confirm-name=\"ana\""))
            let unlocked = try await consoleRequest(client, .post, "/console/users/\(anaId)/unlock", cookies: cookies, form: ["csrf": csrf])
            #expect(unlocked.html.contains("The user is unlocked."))
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"ana password 1"}"#).status == 200)
            // Bob's session through Ana's page: refused, and Bob stays signed in.
            let crossed = try await consoleRequest(
                client, .post, "/console/users/\(anaId)/sessions/\(bobSession)/revoke", cookies: cookies, form: ["csrf": csrf])
            #expect(!crossed.html.contains("The session was revoked."))
            #expect(try await me(client, bobToken)["username"] == "bob")
            for confirm in ["", "Ana", "bob", "ana "] {
                let kept = try await consoleRequest(
                    client, .post, "/console/users/\(anaId)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": confirm])
                #expect(kept.html.contains("nothing was deleted"), "\(confirm)")
            }
            #expect(try await call(client, .get, "/parse/users/\(anaId)", master: true).status == 200)
            let deleted = try await consoleRequest(
                client, .post, "/console/users/\(anaId)/delete", cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(deleted.html.contains("The user was deleted."))
            #expect(try await call(client, .get, "/parse/users/\(anaId)", master: true).status == 404)
            for type in ["account.unlocked", "user.deleted"] {
                let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22\(type)%22%7D", master: true)
                #expect(events.json["results"]?.arrayValue?.first?["admin"] == "ops", "\(type)")
            }
        }
    }

    @Test func theConsolesLoginLimitIsApartFromTheAPIs() async throws {
        let stores = StoreBox()
        var console = ConsoleConfiguration()
        console.loginAttemptsPerMinute = 2
        try await withServer(
            configure: { _, http in http.rateLimits = [RateLimiter.Rule(path: "/login", count: 2, window: 60_000)] }, wrap: stores.keep,
            console: console
        ) { client in
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            for _ in 0..<2 { _ = try await consoleSignIn(client, "nobody", "guess") }
            #expect(try await consoleSignIn(client, "nobody", "guess").page.status == 429)
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"ana password 1"}"#).status == 200)
        }
    }
}
