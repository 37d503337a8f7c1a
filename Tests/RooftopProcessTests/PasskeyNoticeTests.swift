import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// Adding and removing a passkey is mailed to the user (received by a real SMTP server), in her
/// language, naming the passkey and carrying no key material.
@Suite struct PasskeyNoticeTests: LiveServerTest {
    @Test func addingAndRemovingAPasskeyIsMailed() async throws {
        let server = try SMTPTestServer()
        let (mail, defaults) = mailSetup(server, verify: false)
        var accounts = defaults
        accounts.securityNotifications = SecurityNotificationSettings()
        accounts.securityNotifications.newDevice = false
        accounts.passkeys.relyingPartyId = "example.com"
        accounts.passkeys.origins = ["https://example.com"]
        try await withServer(accounts: accounts, mail: mail) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"pass phrase 1","email":"ana@example.com","locale":"ja"}"#)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let headers = ["X-Parse-Session-Token": token]
            var passkey = SoftwarePasskey(rpId: "example.com", origin: "https://example.com")
            let options = try await call(client, .post, "/parse/users/me/passkeys/registration/options", body: "{}", headers: headers)
            let body = JSONWriter.string(["credential": try passkey.respond(toCreationOptions: options.json), "name": "アナのiPhone"])
            #expect(try await call(client, .post, "/parse/users/me/passkeys", body: body, headers: headers).status == 201)
            let id = Base64URL.encode(passkey.credentialId)
            #expect(try await call(client, .delete, "/parse/users/me/passkeys/\(id)", headers: headers).status == 200)
            _ = try await server.waitForMessages(2)
            await mail.queue.drain()
            let messages = server.messages().map(FileOutbox.readable)
            let kinds = messages.compactMap { message in
                message.split(separator: "\n").first { $0.hasPrefix("X-Rooftop-Kind: ") }.map { String($0.dropFirst(16)) }
            }
            #expect(Set(kinds) == ["passkey_added", "passkey_removed"], "\(kinds)")
            #expect(messages.allSatisfy { $0.contains("パスキー") && $0.contains("アナのiPhone") }, "\(messages)")
            #expect(messages.allSatisfy { !$0.contains(id) })
        }
    }
}
