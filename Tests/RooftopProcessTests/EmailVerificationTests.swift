import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// Email verification end to end: sign-up over HTTP, the mail received by a real SMTP server,
/// the link followed, the hosted page's answer and headers.
@Suite struct EmailVerificationTests: LiveServerTest {
    /// Signs up ana with an email address (the answer: 201 and a session, or 205 when login waits).
    func signUpAna(_ client: any TestClientProtocol) async throws -> Reply {
        try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse","email":"ana@example.com"}"#)
    }

    @Test func signUpMailsALinkThatVerifiesOnce() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            // A forged Host header does not reach the link.
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse","email":"ana@example.com"}"#,
                headers: ["Host": "evil.example", "X-Forwarded-Host": "evil.example"])
            #expect(signup.status == 201)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            #expect(try await me(client, token)["emailVerified"] == false)
            let (full, path) = try await link(server, message: 1)
            #expect(full.hasPrefix("https://public.example/parse/apps/\(testAppId)/verify_email?token="))
            #expect(server.messages()[0].contains("X-Envelope-To: ana@example.com"))
            #expect(!server.messages()[0].contains("evil.example"))

            let opened = try await page(client, .get, path)
            #expect(opened.status == 200)
            #expect(opened.html.contains("Email verified"))
            #expect(opened.html.contains("Thank you, ana."))
            #expect(opened.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(opened.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            // Script only from the server's own file, never inline.
            #expect(opened.headers[.contentSecurityPolicy]?.contains("script-src 'self';") == true)
            #expect(opened.headers[.contentSecurityPolicy]?.contains("unsafe") == false)
            #expect(opened.headers[.xContentTypeOptions] == "nosniff")
            #expect(opened.headers[.cacheControl] == "no-store")
            #expect(opened.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(try await me(client, token)["emailVerified"] == true)
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22%3A%22email.verified%22%7D", master: true)
            #expect(audit.json["results"]?.arrayValue?.count == 1)

            // Used once: the same link (a mail scanner, a double tap) shows the success page, as
            // Parse Server does for a verified user, and verifies nothing again.
            let again = try await page(client, .get, path)
            #expect(again.status == 200)
            #expect(again.html.contains("Email verified") && again.html.contains("Thank you, ana."))
            let audited = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22%3A%22email.verified%22%7D", master: true)
            #expect(audited.json["results"]?.arrayValue?.count == 1)
            let css = try await page(client, .get, "/parse/apps/rooftop.css")
            #expect(css.status == 200 && css.headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    /// Many clicks at once: exactly one consumes the token (one audit record); the others, the
    /// same link of a verified address, see the success page too.
    @Test func concurrentClicksVerifyOnce() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            _ = try await signUpAna(client)
            let (_, path) = try await link(server, message: 1)
            let port = try #require(client.port)
            let statuses = await parallelRequests(
                port: port, Array(repeating: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", count: 20))
            #expect(statuses.filter { $0 == 200 }.count == 20, "\(statuses)")
            let audit = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22%3A%22email.verified%22%7D", master: true)
            #expect(audit.json["results"]?.arrayValue?.count == 1)
        }
    }

    /// `preventLoginWithUnverifiedEmail`: no session at sign-up, 205 at login until verified.
    @Test func loginWaitsForVerification() async throws {
        let server = try SMTPTestServer()
        var (mail, accounts) = mailSetup(server)
        accounts.preventLoginWithUnverifiedEmail = true
        try await withServer(accounts: accounts, mail: mail) { client in
            let signup = try await signUpAna(client)
            #expect(signup.status == 201)
            #expect(signup.json["sessionToken"] == nil)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#)
            #expect(login.status == 400 && login.json["code"] == 205)
            // A wrong password still gets the usual 101: 205 tells nothing to a guesser.
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong horse"}"#).json["code"] == 101)
            _ = try await page(client, .get, try await link(server, message: 1).path)
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#).status == 200)
        }
        // preventSignupWithUnverifiedEmail: the user is created, the answer is 205.
        let server2 = try SMTPTestServer()
        var (mail2, strict) = mailSetup(server2)
        strict.preventLoginWithUnverifiedEmail = true
        strict.preventSignupWithUnverifiedEmail = true
        try await withServer(accounts: strict, mail: mail2) { client in
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"bo","password":"correct horse","email":"bo@example.com"}"#)
            #expect(signup.status == 400 && signup.json["code"] == 205)
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"bo","password":"correct horse"}"#).json["code"] == 205)
            #expect(try await server2.waitForMessages(1).count == 1)
        }
    }

    /// A new address is unverified again and the old link dies; `/verificationEmailRequest`
    /// answers the same for every address and supersedes the previous link.
    @Test func emailChangesAndResendRequests() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let signup = try await signUpAna(client)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let id = try #require(signup.json["objectId"]?.stringValue)
            let first = try await link(server, message: 1).path
            let session = ["X-Parse-Session-Token": token]
            #expect(try await call(client, .put, "/parse/users/\(id)", body: #"{"emailVerified":true}"#, headers: session).json["code"] == 119)
            #expect(try await call(client, .put, "/parse/users/\(id)", body: #"{"email":"ana@new.example"}"#, headers: session).status == 200)
            let second = try await link(server, message: 2)
            #expect(server.messages()[1].contains("X-Envelope-To: ana@new.example"))
            #expect(try await page(client, .get, first).status == 400)
            #expect(try await me(client, token)["emailVerified"] == false)

            for address in ["ana@new.example", "nobody@example.com", "ANA@NEW.EXAMPLE"] {
                let answer = try await call(client, .post, "/parse/verificationEmailRequest", body: #"{"email":"\#(address)"}"#)
                #expect(answer.status == 200 && answer.json == [:])
            }
            // Two requests for ana's address: messages 3 and 4, sent concurrently, so either may
            // arrive first. Only the later request's link works; the other was superseded.
            let third = try await link(server, message: 3).path
            let fourth = try await link(server, message: 4).path
            #expect(third != fourth)
            #expect(server.messages().count == 4)
            #expect(try await page(client, .get, second.path).status == 400)  // superseded
            let statuses = [try await page(client, .get, third).status, try await page(client, .get, fourth).status]
            #expect(statuses.sorted() == [200, 400])
            // Verified: a request now sends nothing, and still answers {}.
            #expect(try await call(client, .post, "/parse/verificationEmailRequest", body: #"{"email":"ana@new.example"}"#).json == [:])
            await mail.queue.drain()
            #expect(server.messages().count == 4)
            #expect(try await call(client, .post, "/parse/verificationEmailRequest", body: #"{}"#).json["code"] == 204)
            #expect(try await call(client, .post, "/parse/verificationEmailRequest", body: #"{"email":{"$ne":1}}"#).json["code"] == 125)
        }
    }

    /// An expired link offers a new one (a form POST), in the visitor's language.
    @Test func expiredLinkSendsANewOne() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, validity: 1)
        let clock = TestClock()
        try await withServer(accounts: accounts, mail: mail, clock: clock) { client in
            _ = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse","email":"ana@example.com","locale":"ja-JP"}"#)
            let (full, path) = try await link(server, message: 1)
            #expect(FileOutbox.readable(server.messages()[0]).contains("メールアドレスの確認"))  // the user's locale
            clock.advance(by: .milliseconds(1001))
            let expired = try await page(client, .get, path, language: "ja,en;q=0.5")
            #expect(expired.status == 200)
            #expect(expired.html.contains("リンクの有効期限が切れています"))
            #expect(expired.html.contains("<form method=\"post\" action=\"resend_verification_email\">"))
            let token = String(full.split(separator: "=").last ?? "")
            let resent = try await page(client, .post, "/parse/apps/\(testAppId)/resend_verification_email", form: "token=\(token)", language: "en")
            #expect(resent.status == 200 && resent.html.contains("Check your inbox"))
            #expect(try await server.waitForMessages(2).count == 2)
            let bogus = try await page(client, .post, "/parse/apps/\(testAppId)/resend_verification_email", form: "token=nope")
            #expect(bogus.status == 400)
        }
    }

    /// Tokens as operators or markup, other apps' paths: invalid-link pages, escaped, nothing changed.
    @Test func hostileLinksChangeNothing() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server)
        try await withServer(accounts: accounts, mail: mail) { client in
            let signup = try await signUpAna(client)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let base = "/parse/apps/\(testAppId)/verify_email"
            for query in [
                "token[$ne]=x", "token=%7B%22%24ne%22%3A1%7D", "token=", "", "token=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E", "token=a&token=b",
            ] {
                let answer = try await page(client, .get, base + "?" + query)
                #expect(answer.status == 400, "\(query)")
                #expect(!answer.html.contains("<script>alert"))
            }
            #expect(try await page(client, .get, "/parse/apps/otherApp/verify_email?token=x").status == 404)
            #expect(try await page(client, .get, "/parse/apps/\(testAppId)/nothing").status == 404)
            #expect(try await me(client, token)["emailVerified"] == false)
        }
    }

    /// Without mail set up, the request route answers 1 and the pages are not there.
    @Test func withoutMailTheFlowIsOff() async throws {
        try await withServer { client in
            let signup = try await signUpAna(client)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            #expect(try await me(client, token)["emailVerified"] == nil)
            let request = try await call(client, .post, "/parse/verificationEmailRequest", body: #"{"email":"ana@example.com"}"#)
            #expect(request.status == 500 && request.json["code"] == 1)
            #expect(try await page(client, .get, "/parse/apps/\(testAppId)/verify_email?token=x").status == 404)
        }
    }

    /// A mail server that is down does not fail the sign-up; the mail is retried and arrives once
    /// the server is back.
    @Test func signUpSucceedsWhileTheMailServerIsDown() async throws {
        let port = try Loopback.freePort()
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let client = SMTPClient(configuration: .init(host: "127.0.0.1", port: port, security: .none, timeout: 5))
        let mail = AccountMail(
            queue: MailQueue(transport: client, maxAttempts: 8, firstDelay: .milliseconds(200), logger: logger), templates: .builtIn,
            locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo", publicServerURL: publicURL, appId: testAppId)
        var accounts = AccountsConfiguration()
        accounts.verifyUserEmails = true
        try await withServer(accounts: accounts, mail: mail) { client in
            let signup = try await signUpAna(client)
            #expect(signup.status == 201)
            try await Task.sleep(for: .milliseconds(300))  // at least one attempt has failed by now
            #expect(await mail.queue.currentCounters().retried >= 1)
            let server = try SMTPTestServer(port: port)
            let (_, path) = try await link(server, message: 1)
            #expect(try await page(client, .get, path).status == 200)
        }
    }
}
