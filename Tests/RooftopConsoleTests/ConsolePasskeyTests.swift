import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopConsole
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A user's passkeys in the console, over real HTTP against a real database: the user page lists
/// them (name, created, last used, backed up, a possible clone marked); an owner removes one
/// after typing the username on a confirmation page, audited with the admin's name and told to
/// the user by mail; a wrong name removes nothing, and the account's last way in is refused. The
/// refusals (read-only admins, CSRF, hostile ids, races) are in `+Refusals`.
@Suite struct ConsolePasskeyTests: ConsolePasskeyTest {
    @Test func theUserPageListsThePasskeysEscaped() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "ops", password: password, role: .owner, totp: false)
            try await admins.create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await signUp(client, "ana")
            let bob = try await signUp(client, "bob")
            try await seed(
                stores.store, ana.id,
                [
                    Self.passkey("AAAA", name: "<script>alert(1)</script>", lastUsed: Self.dayAfter, backedUp: true),
                    Self.passkey("BB-_", name: "YubiKey", eligible: false, regressions: 1),
                ], clock: clock)
            let owner = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]

            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: owner)
            #expect(page.status == 200)
            #expect(page.html.contains("<h2 id=\"passkeys-h\">Passkeys</h2>"))
            #expect(!page.html.contains("<script>alert(1)</script>"), "the name is escaped")
            #expect(page.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(page.html.contains("<td>2023-11-14 22:13:20 UTC</td><td>2023-11-15 22:13:20 UTC</td><td>backed up</td>"))
            #expect(page.html.contains("<td>never</td><td>this device only</td>"))
            #expect(page.html.contains("⚠ counter went back"), "the possible clone is marked")
            #expect(page.html.components(separatedBy: "⚠").count == 2, "only on the passkey whose counter went back")
            #expect(page.html.contains("href=\"/console/users/\(ana.id)/passkeys/AAAA/remove\""))
            #expect(page.html.contains("href=\"/console/users/\(ana.id)/passkeys/BB-_/remove\""))

            let japanese = try await consoleRequest(client, .get, "/console/users/\(ana.id)?lang=ja", cookies: owner)
            #expect(japanese.html.contains("<h2 id=\"passkeys-h\">パスキー</h2>") && japanese.html.contains("バックアップ済み"))
            #expect(japanese.html.contains("カウンターが戻りました") && japanese.html.contains(">削除</a>"))

            let none = try await consoleRequest(client, .get, "/console/users/\(bob.id)", cookies: owner)
            #expect(none.html.contains("<p>No passkeys.</p>") && !none.html.contains("/passkeys/"))
            let noneJapanese = try await consoleRequest(client, .get, "/console/users/\(bob.id)?lang=ja", cookies: owner)
            #expect(noneJapanese.html.contains("<p>パスキーはありません。</p>"))

            // A read-only admin sees the list, not the removal.
            let viewer = ["rooftop_console": try #require(try await consoleSignIn(client, "viewer", password).session)]
            let seen = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: viewer)
            #expect(seen.status == 200 && seen.html.contains("YubiKey") && !seen.html.contains("/passkeys/"))
        }
    }

    @Test func anOwnerRemovesOneAfterTypingTheUsernameAndItIsAudited() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone"), Self.passkey("BBBB", name: "<b>Laptop</b>")], clock: clock)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let path = "/console/users/\(ana.id)/passkeys/BBBB/remove"
            let confirmation = try await consoleRequest(client, .get, path, cookies: cookies)
            #expect(confirmation.status == 200)
            #expect(confirmation.html.contains("action=\"\(path)\""))
            #expect(confirmation.html.contains("data-confirm-name=\"ana\""), "the username is what must be typed")
            #expect(confirmation.html.contains("&lt;b&gt;Laptop&lt;/b&gt;") && !confirmation.html.contains("<b>Laptop"))
            let csrf = try #require(confirmation.hidden("csrf"))

            for typed in [nil, "", "Ana", "ana ", "bob", ana.id, "ana\u{0}", String(repeating: "a", count: 10_240)] {
                var form = ["csrf": csrf]
                form["confirm"] = typed
                let kept = try await consoleRequest(client, .post, path, cookies: cookies, form: form)
                #expect(kept.status == 400, "\(String(typed?.prefix(10) ?? "none"))")
                #expect(kept.html.contains("The typed name does not match; the passkey was not removed."))
            }
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA", "BBBB"])
            #expect(try await removals(client).isEmpty)

            let removed = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(removed.status == 200)
            #expect(removed.html.contains("The passkey was removed."))
            #expect(!removed.html.contains("<td>&lt;b&gt;Laptop&lt;/b&gt;</td>") && removed.html.contains("<td>Phone</td>"))
            #expect(!removed.html.contains("<b>Laptop"), "the event's detail, in the recent events, is escaped too")
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA"], "only that passkey went")
            let events = try await removals(client)
            #expect(events.count == 1)
            #expect(events.first?["userId"]?.stringValue == ana.id)
            #expect(events.first?["admin"] == "ops")
            #expect(events.first?["detail"]?.stringValue == "<b>Laptop</b>, by console admin ops", "\(events)")

            // Again (a second tab, a replay): nothing to remove, nothing recorded.
            let again = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(again.status == 404 && again.html.contains("This user has no such passkey; nothing was removed."))
            let page = try await consoleRequest(client, .get, path, cookies: cookies)
            #expect(page.status == 404 && page.html.contains("This user has no such passkey"))
            #expect(try await removals(client).count == 1)
        }
    }

    @Test func theLastWayInIsNotRemoved() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone")], clock: clock, withoutPassword: true)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let path = "/console/users/\(ana.id)/passkeys/AAAA/remove"
            let csrf = try #require(try await consoleRequest(client, .get, path, cookies: cookies).hidden("csrf"))
            let refused = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(refused.status == 409)
            #expect(refused.html.contains("only way to sign in, so it was not removed"), "\(refused.html)")
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA"])
            #expect(try await removals(client).isEmpty)
            let japanese = try await consoleRequest(
                client, .post, path, cookies: cookies.merging(["rooftop_console_lang": "ja"]) { a, _ in a },
                form: ["csrf": csrf, "confirm": "ana"])
            #expect(japanese.status == 409 && japanese.html.contains("唯一のサインイン方法のため、削除していません"))
        }
    }

    /// The user is mailed when an owner removes a passkey, as when she removes it herself.
    @Test func theUserIsToldWhenAnOwnerRemovesOne() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        let outbox = temporaryDataDirectory().path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        var logger = Logger(label: "mail")
        logger.logLevel = .critical
        let mail = AccountMail(
            queue: MailQueue(transport: FileOutbox(directory: outbox), firstDelay: .milliseconds(10), logger: logger), templates: .builtIn,
            locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo", publicServerURL: publicURL, appId: testAppId)
        try await withServer(mail: mail, clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            let email = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"email":"ana@example.com"}"#, master: true)
            #expect(email.status == 200, "\(email.json)")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone")], clock: clock)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let path = "/console/users/\(ana.id)/passkeys/AAAA/remove"
            let csrf = try #require(try await consoleRequest(client, .get, path, cookies: cookies).hidden("csrf"))
            #expect(try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"]).status == 200)
            let box = FileOutbox(directory: outbox)
            let texts = { try box.list().filter { $0.to == "ana@example.com" }.map { try box.show($0.name) } }
            try await waitUntil { (try? texts().contains { $0.contains("X-Rooftop-Kind: passkey_removed") }) == true }
            await mail.queue.drain()
        }
    }
}
