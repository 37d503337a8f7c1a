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

/// The `publicServerURL` of the mail-flow tests: links must use it whatever the request says.
let publicURL = "https://public.example/parse"

/// Helpers for tests of the flows that mail a link: a real SMTP server receives the message,
/// the test reads the link and opens the hosted page.
extension LiveServerTest {

    /// The mail settings pointing at `server`, and (unless `verify` is false) verification on;
    /// security notices off, so that the links these flows mail are the only messages.
    func mailSetup(_ server: SMTPTestServer, validity: Int? = 86_400, verify: Bool = true) -> (AccountMail, AccountsConfiguration) {
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let client = SMTPClient(configuration: .init(host: "127.0.0.1", port: server.port, security: .none, timeout: 5))
        let mail = AccountMail(
            queue: MailQueue(transport: client, firstDelay: .milliseconds(100), logger: logger), templates: .builtIn,
            locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo", publicServerURL: publicURL, appId: testAppId)
        var accounts = AccountsConfiguration()
        accounts.verifyUserEmails = verify
        accounts.emailVerifyTokenValidityDuration = validity
        accounts.securityNotifications = .off
        return (mail, accounts)
    }

    /// The path and query of the first link in the `n`th received message (1-based).
    func link(_ server: SMTPTestServer, message n: Int) async throws -> (full: String, path: String) {
        let messages = try await server.waitForMessages(n)
        try #require(messages.count >= n, "expected \(n) messages, got \(messages.count)")
        let text = FileOutbox.readable(messages[n - 1])
        let start = try #require(text.range(of: publicURL))
        let full = String(text[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "<" })
        return (full, "/parse" + full.dropFirst(publicURL.count))
    }

    /// A hosted page: status, headers, HTML.
    func page(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, form: String? = nil, language: String? = nil
    ) async throws -> (status: Int, headers: HTTPFields, html: String) {
        var headers = HTTPFields()
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: uri, method: method, headers: headers, body: form.map { ByteBuffer(string: $0) }) { response in
            (Int(response.status.code), response.headers, String(buffer: response.body))
        }
    }

    func me(_ client: any TestClientProtocol, _ token: String) async throws -> JSON {
        try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token]).json
    }
}
