import Foundation
package import HTTPTypes
package import HummingbirdTesting
import Logging
import NIOCore
package import RooftopCore
package import RooftopMail
package import RooftopServices
import Testing

/// The `publicServerURL` of the mail-flow tests: links must use it whatever the request says.
package let publicURL = "https://public.example/parse"

/// Helpers for tests of the flows that mail a link: a real SMTP server receives the message,
/// the test reads the link and opens the hosted page.
extension LiveServerTest {

    /// The mail settings pointing at `server`, and (unless `verify` is false) verification on;
    /// security notices off, so that the links these flows mail are the only messages.
    package func mailSetup(_ server: SMTPTestServer, validity: Int? = 86_400, verify: Bool = true) -> (AccountMail, AccountsConfiguration) {
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
    package func link(_ server: SMTPTestServer, message n: Int) async throws -> (full: String, path: String) {
        let messages = try await server.waitForMessages(n)
        try #require(messages.count >= n, "expected \(n) messages, got \(messages.count)")
        let text = FileOutbox.readable(messages[n - 1])
        let start = try #require(text.range(of: publicURL))
        let full = String(text[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "<" })
        return (full, "/parse" + full.dropFirst(publicURL.count))
    }

    /// A hosted page: status, headers, HTML.
    package func page(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, form: String? = nil, language: String? = nil
    ) async throws -> (status: Int, headers: HTTPFields, html: String) {
        var headers = HTTPFields()
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let language { headers[.acceptLanguage] = language }
        return try await client.execute(uri: uri, method: method, headers: headers, body: form.map { ByteBuffer(string: $0) }) { response in
            (Int(response.status.code), response.headers, String(buffer: response.body))
        }
    }

    /// `GET /users/me` with `token`: the user.
    package func me(_ client: any TestClientProtocol, _ token: String) async throws -> JSON {
        try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": token]).json
    }
}

/// The console outbox tests' messages.
extension LiveServerTest {
    /// Writes `count` messages through the real file transport; their names, oldest first.
    package func deliver(_ outbox: FileOutbox, _ count: Int, subject: (Int) -> String = { "Message \($0)" }) async throws -> [String] {
        for n in 0..<count {
            let text = "Hello <script>alert(\(n))</script> & reset: https://example.com/parse/apps/test-app/request_password_reset?token=tok\(n)"
            try await outbox.deliver(
                MailMessage(from: "App <no-reply@example.com>", to: "user\(n)@example.com", subject: subject(n), text: text, html: "<p>\(n)</p>"))
        }
        return outbox.names().reversed()
    }
}
