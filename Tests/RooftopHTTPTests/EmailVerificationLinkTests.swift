import Foundation
import HTTPTypes
import Logging
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// The verification link's page over the in-process server, the mail in a file outbox: the
/// token is single-use, but a second click of the link that verified the address (a mail
/// scanner, a double tap) sees the success page, as Parse Server shows it.
@Suite struct EmailVerificationLinkTests: LiveServerTest {
    /// Mail to a file outbox in `directory`, verification on.
    private func mailToOutbox(_ directory: String) -> (AccountMail, AccountsConfiguration) {
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let mail = AccountMail(
            queue: MailQueue(transport: FileOutbox(directory: directory), firstDelay: .milliseconds(100), logger: logger), templates: .builtIn,
            locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo", publicServerURL: publicURL, appId: testAppId)
        var accounts = AccountsConfiguration()
        accounts.verifyUserEmails = true
        accounts.securityNotifications = .off
        return (mail, accounts)
    }

    /// The path and query of the link in the outbox's `n`th message (1-based), once it is there.
    private func link(_ outbox: FileOutbox, message n: Int) async throws -> String {
        try await waitUntil { try outbox.list().count >= n }
        let text = try outbox.show(try outbox.list()[n - 1].name)
        let start = try #require(text.range(of: publicURL))
        let full = String(text[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "<" })
        return "/parse" + full.dropFirst(publicURL.count)
    }

    @Test func secondClickOfTheUsedLinkSaysVerified() async throws {
        let directory = temporaryDataDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outbox = FileOutbox(directory: directory)
        let (mail, accounts) = mailToOutbox(directory)
        try await withServer(accounts: accounts, mail: mail) { client in
            let signUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"a long password 1","email":"ana@example.com"}"#)
            let id = try #require(signUp.json["objectId"]?.stringValue)
            let session = try #require(signUp.json["sessionToken"]?.stringValue)
            let first = try await link(outbox, message: 1)
            #expect(first.contains("/apps/\(testAppId)/verify_email?token="))

            let verified = try await page(client, .get, first)
            #expect(verified.status == 200 && verified.html.contains("Email verified") && verified.html.contains("Thank you, ana."))
            // Again: the token was consumed, the address is verified — the same success page.
            let again = try await page(client, .get, first)
            #expect(again.status == 200 && again.html.contains("Email verified") && again.html.contains("Thank you, ana."), "\(again.html)")
            #expect(try await me(client, session)["emailVerified"] == .bool(true))

            // A token never issued, of the right shape, and the consumed one's resend form: not valid.
            let marker = try #require(first.range(of: "token="))
            let token = String(first[marker.upperBound...].prefix { $0 != "&" })
            let forged = String(token.reversed())
            let never = try await page(client, .get, "/parse/apps/\(testAppId)/verify_email?token=\(forged)")
            #expect(never.status == 400 && never.html.contains("Link not valid"))
            let resend = try await page(client, .post, "/parse/apps/\(testAppId)/resend_verification_email", form: "token=\(token)")
            #expect(resend.status == 400 && resend.html.contains("Link not valid"))

            // A new address: a new link, and the old one no longer says anything is verified.
            let change = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"email":"ana2@example.com"}"#, headers: ["X-Parse-Session-Token": session])
            #expect(change.status == 200)
            let second = try await link(outbox, message: 2)
            #expect(second != first)
            let stale = try await page(client, .get, first)
            #expect(stale.status == 400 && stale.html.contains("Link not valid"))
        }
    }
}
