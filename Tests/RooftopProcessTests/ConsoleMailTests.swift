import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopTesting
import Testing

/// The console's actions that mail a user, with a real SMTP server receiving the messages: an
/// owner's verification mail, none when the server does not verify, and a changed email
/// verified again by mail.
@Suite struct ConsoleMailTests: ConsoleUsersTest {
    let password = "console passphrase 1"

    @Test func ownersSendAVerificationMailThatArrives() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: true)
        let stores = StoreBox()
        try await withServer(accounts: accounts, mail: mail, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let ana = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let first = try await link(server, message: 1)
            let session = try #require(try await consoleSignIn(client, "ops", "console passphrase 1").session)
            let csrf = try await consoleCSRF(client, session: session)
            let before = try await consoleRequest(client, .get, "/console/users/\(anaId)", cookies: ["rooftop_console": session])
            #expect(before.html.contains("not verified"))
            let sent = try await consoleRequest(
                client, .post, "/console/users/\(anaId)/verify", cookies: ["rooftop_console": session], form: ["csrf": csrf])
            #expect(sent.html.contains("A verification mail was sent."))
            let second = try await link(server, message: 2)
            #expect(second.path.contains("verify_email") && second.path != first.path)
            let verified = try await page(client, .get, second.path)
            #expect(verified.status == 200)
            let after = try await consoleRequest(client, .get, "/console/users/\(anaId)", cookies: ["rooftop_console": session])
            #expect(after.html.contains("state-good\">verified"))
        }
    }

    /// A server that does not verify emails sends no verification mail, even to a hand-made post.
    @Test func noVerificationMailWhenTheServerDoesNotVerify() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: false)
        let stores = StoreBox()
        try await withServer(accounts: accounts, mail: mail, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let ana = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let session = try #require(try await consoleSignIn(client, "ops", "console passphrase 1").session)
            let csrf = try await consoleCSRF(client, session: session)
            let page = try await consoleRequest(client, .get, "/console/users/\(anaId)", cookies: ["rooftop_console": session])
            #expect(!page.html.contains("/verify\""))
            let sent = try await consoleRequest(
                client, .post, "/console/users/\(anaId)/verify", cookies: ["rooftop_console": session], form: ["csrf": csrf])
            #expect(!sent.html.contains("A verification mail was sent."))
            await mail.queue.drain()
            #expect(server.messages().isEmpty)
        }
    }

    /// A new email set in the console is unverified again and gets its verification mail, as
    /// through `PUT /users/:id`; the link in it verifies the new address.
    @Test func anEmailChangedInTheConsoleIsVerifiedAgainByMail() async throws {
        let server = try SMTPTestServer()
        let (mail, accounts) = mailSetup(server, verify: true)
        let stores = StoreBox()
        try await withServer(accounts: accounts, mail: mail, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana", email: "ana@example.com")
            _ = try await link(server, message: 1)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            var form = Self.editForm(try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies))
            form["email"] = "ana.new@example.com"
            let saved = try await consoleRequest(client, .post, "/console/users/\(ana.id)/edit", cookies: cookies, form: form)
            #expect(saved.html.contains("The user was saved."))
            #expect(saved.html.contains("state-bad\">not verified"))
            let messages = try await server.waitForMessages(2)
            #expect(FileOutbox.readable(try #require(messages.last)).contains("ana.new@example.com"))
            let (_, path) = try await link(server, message: 2)
            #expect(path.contains("verify_email"))
            #expect(try await page(client, .get, path).status == 200)
            let stored = try await call(client, .get, "/parse/users/\(ana.id)", master: true).json
            #expect(stored["email"] == "ana.new@example.com" && stored["emailVerified"] == true)
        }
    }
}
