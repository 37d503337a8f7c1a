import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopMail
import RooftopServer
import RooftopServices
import RooftopTesting
import Testing

/// A trigger around a flow that mails a link, with a real SMTP server receiving the messages.
@Suite struct TriggerMailTests: LiveServerTest {
    /// `beforePasswordResetRequest`: with distinct answers on, a refusal reaches the client.
    @Test func passwordResetRequestsCanBeRefused() async throws {
        let server = try SMTPTestServer()
        let (mail, setup) = mailSetup(server, verify: false)
        var accounts = setup
        accounts.resetPasswordSuccessOnInvalidEmail = false
        var cloud = CloudCode()
        cloud.beforePasswordResetRequest { request in
            if request.object["email"] == "blocked@example.com" { throw ParseError(.operationForbidden, "Resets are blocked for this account.") }
        }
        try await withServer(accounts: accounts, mail: mail, cloud: cloud) { (client: any TestClientProtocol) async throws in
            for name in ["blocked", "open"] {
                let body = #"{"username":"\#(name)","password":"a long password 1","email":"\#(name)@example.com"}"#
                #expect(try await call(client, .post, "/parse/users", body: body).status == 201)
            }
            let blocked = try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"blocked@example.com"}"#)
            #expect(blocked.json == ["code": 119, "error": "Resets are blocked for this account."])
            #expect(try await call(client, .post, "/parse/requestPasswordReset", body: #"{"email":"open@example.com"}"#).status == 200)
            let messages = try await server.waitForMessages(1)
            await mail.queue.drain()
            #expect(server.messages().count == 1)
            #expect(messages.first?.contains("open@example.com") == true)
        }
    }
}
