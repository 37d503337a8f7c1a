import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RooftopConsole
import RooftopCore
import RooftopCrypto
import RooftopMail
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A user's second factor in the console, over real HTTP against a real database: the user page
/// shows it (on with the recovery codes left, or off); an owner removes it after typing the
/// username on a confirmation page, audited with the admin's name; a wrong name, a read-only
/// admin, a missing CSRF token, another site's form or a hostile user id removes nothing.
@Suite struct ConsoleSecondFactorTests: ConsoleUsersTest {
    let password = "console passphrase 1"
    static let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 41 &+ 7) }

    /// Signs `name` up and enrols a second factor with a code of `clock`'s step: the user's id
    /// and recovery codes.
    func enrolled(_ client: any TestClientProtocol, _ clock: TestClock, _ name: String) async throws -> (id: String, recovery: [String]) {
        let user = try await signUp(client, name)
        let code = TOTP.code(secret: Self.secret, step: clock.now().millisecondsSince1970 / 1000 / 30)
        let body = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(Self.secret))","token":"\#(code)"}}}"#
        let reply = try await call(client, .put, "/parse/users/\(user.id)", body: body, headers: ["X-Parse-Session-Token": user.token])
        #expect(reply.status == 200, "\(reply.json)")
        let recovery = (reply.json["authDataResponse"]?["mfa"]?["recovery"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(recovery.count == 10)
        return (user.id, recovery)
    }

    /// The user as stored, internal fields included.
    func stored(_ store: any DataStore, _ id: String) async throws -> StoredObject {
        let request = FindRequest(
            className: .user, query: .field(FieldPath(field: .objectId), .equals(.string(id))), options: FindOptions(),
            scope: AccessScope(classes: [.user: .master]))
        return try #require(try await store.find(request).first)
    }

    /// Whether the stored user still has any part of a second factor.
    func hasFactor(_ store: any DataStore, _ id: String) async throws -> Bool {
        let user = try await stored(store, id)
        return user.fields[InternalField.secondFactor.rawValue] != nil || user.fields["authData"]?["mfa"] != nil
    }

    /// The `second.factor.removed` events recorded.
    func removals(_ client: any TestClientProtocol) async throws -> [JSON] {
        let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22second.factor.removed%22%7D", master: true)
        return events.json["results"]?.arrayValue ?? []
    }

    /// A password login of `name` (with `mfa` as the code when given).
    func logIn(_ client: any TestClientProtocol, _ name: String, mfa: String? = nil) async throws -> Reply {
        let authData = mfa.map { #","authData":{"mfa":{"token":"\#($0)"}}"# } ?? ""
        return try await call(client, .post, "/parse/login", body: #"{"username":"\#(name)","password":"user password 1"\#(authData)}"#)
    }

    @Test func theUserPageShowsTheSecondFactorWithTheRecoveryCodesLeft() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "ops", password: password, role: .owner, totp: false)
            try await admins.create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await enrolled(client, clock, "ana")
            let bob = try await signUp(client, "bob")
            let owner = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let removal = "action=\"/console/users/\(ana.id)/remove-second-factor\""

            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: owner)
            #expect(page.status == 200)
            #expect(page.html.contains("<dt>Second factor</dt><dd class=\"state-good\">on (10 recovery codes left)</dd>"))
            #expect(page.html.contains(removal), "an owner is offered the removal")
            // A recovery code spent at login: one fewer left.
            #expect(try await logIn(client, "ana", mfa: ana.recovery[0]).status == 200)
            let spent = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: owner)
            #expect(spent.html.contains("on (9 recovery codes left)"))
            let japanese = try await consoleRequest(client, .get, "/console/users/\(ana.id)?lang=ja", cookies: owner)
            #expect(japanese.html.contains("<dt>二要素認証</dt><dd class=\"state-good\">オン（残りのリカバリーコード 9 件）</dd>"))
            #expect(japanese.html.contains("二要素認証を解除"))

            let off = try await consoleRequest(client, .get, "/console/users/\(bob.id)", cookies: owner)
            #expect(off.html.contains("<dt>Second factor</dt><dd class=\"state-none\">off</dd>"))
            #expect(!off.html.contains("remove-second-factor"), "nothing to remove")
            let offJapanese = try await consoleRequest(client, .get, "/console/users/\(bob.id)?lang=ja", cookies: owner)
            #expect(offJapanese.html.contains("<dt>二要素認証</dt><dd class=\"state-none\">オフ</dd>"))

            // A read-only admin sees the state, not the action.
            let viewer = ["rooftop_console": try #require(try await consoleSignIn(client, "viewer", password).session)]
            let seen = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: viewer)
            #expect(seen.status == 200 && seen.html.contains("on (9 recovery codes left)"))
            #expect(!seen.html.contains("remove-second-factor"))
        }
    }

    @Test func anOwnerRemovesItAfterTypingTheUsernameAndItIsAudited() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await enrolled(client, clock, "ana")
            let bob = try await enrolled(client, clock, "bob")
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let confirmation = try await consoleRequest(client, .get, "/console/users/\(ana.id)/remove-second-factor", cookies: cookies)
            #expect(confirmation.status == 200)
            #expect(confirmation.html.contains("action=\"/console/users/\(ana.id)/remove-second-factor\""))
            #expect(confirmation.html.contains("data-confirm-name=\"ana\""), "the username is what must be typed")
            let csrf = try #require(confirmation.hidden("csrf"))
            let path = "/console/users/\(ana.id)/remove-second-factor"

            for typed in [nil, "", "Ana", "ana ", " ana", "bob", ana.id, "ana\u{0}", String(repeating: "a", count: 10_240)] {
                var form = ["csrf": csrf]
                form["confirm"] = typed
                let kept = try await consoleRequest(client, .post, path, cookies: cookies, form: form)
                #expect(kept.status == 400, "\(String(typed?.prefix(10) ?? "none"))")
                #expect(kept.html.contains("The typed name does not match; the second factor was not removed."))
            }
            #expect(try await hasFactor(stores.store, ana.id))
            #expect(try await removals(client).isEmpty)
            #expect(try await logIn(client, "ana").json["code"] == -1, "still asks for a code")

            let removed = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(removed.status == 200)
            #expect(removed.html.contains("The second factor was removed."))
            #expect(removed.html.contains("<dd class=\"state-none\">off</dd>") && !removed.html.contains("remove-second-factor"))
            let user = try await stored(stores.store, ana.id)
            #expect(user.fields[InternalField.secondFactor.rawValue] == nil)
            #expect(user.fields["authData"]?["mfa"] == nil, "\(user.fields["authData"] ?? .null)")
            #expect(try await logIn(client, "ana").status == 200, "the password alone signs in again")
            #expect(try await hasFactor(stores.store, bob.id), "only Ana's factor went")
            let events = try await removals(client)
            #expect(events.count == 1)
            #expect(events.first?["userId"]?.stringValue == ana.id)
            #expect(events.first?["admin"] == "ops")
            #expect(events.first?["detail"]?.stringValue?.contains("ops") == true, "\(events)")

            // Again (a second tab, a replay): nothing to remove, nothing recorded.
            let again = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(again.status == 409 && again.html.contains("This user has no second factor; nothing was removed."))
            let page = try await consoleRequest(client, .get, path, cookies: cookies)
            #expect(page.status == 409 && page.html.contains("This user has no second factor"))
            #expect(try await removals(client).count == 1)
        }
    }

    @Test func aReadOnlyAdminIsRefusedTheRemoval() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await enrolled(client, clock, "ana")
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "viewer", password).session)]
            let path = "/console/users/\(ana.id)/remove-second-factor"
            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies)
            #expect(page.html.contains("on (10 recovery codes left)") && !page.html.contains("remove-second-factor"))
            let csrf = try #require(page.hidden("csrf"))
            let confirmation = try await consoleRequest(client, .get, path, cookies: cookies)
            #expect(confirmation.status == 403 && confirmation.html.contains("This admin account may only look"))
            let forged = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(forged.status == 403)
            #expect(try await hasFactor(stores.store, ana.id))
            #expect(try await removals(client).isEmpty)
        }
    }

    @Test func aRemovalWithoutTheSessionsCSRFTokenIsRefused() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            let admins = consoleAdmins(try stores.store)
            try await admins.create(name: "ops", password: password, role: .owner, totp: false)
            try await admins.create(name: "other", password: password, role: .owner, totp: false)
            let ana = try await enrolled(client, clock, "ana")
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let other = try await consoleCSRF(client, session: try #require(try await consoleSignIn(client, "other", password).session))
            let mine = try await consoleCSRF(client, session: session)
            let path = "/console/users/\(ana.id)/remove-second-factor"
            for token in [nil, "", "wrong", other, mine + "x", String(mine.dropLast())] {
                var form = ["confirm": "ana"]
                form["csrf"] = token
                let refused = try await consoleRequest(client, .post, path, cookies: ["rooftop_console": session], form: form)
                #expect(refused.status == 403)
            }
            // Sent by another site's page, even with the right token and cookie: refused.
            for site in [["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"], ["Origin": "https://evil.example"]] {
                let crossed = try await consoleRequest(
                    client, .post, path, cookies: ["rooftop_console": session], form: ["csrf": mine, "confirm": "ana"], headers: site)
                #expect(crossed.status == 403, "\(site)")
            }
            // The right token without the session's cookie is worth nothing either.
            #expect(try await consoleRequest(client, .post, path, form: ["csrf": mine, "confirm": "ana"]).status == 403)
            #expect(try await hasFactor(stores.store, ana.id))
            #expect(try await removals(client).isEmpty)
            let done = try await consoleRequest(client, .post, path, cookies: ["rooftop_console": session], form: ["csrf": mine, "confirm": "ana"])
            #expect(done.status == 200 && done.html.contains("The second factor was removed."))
            #expect(!(try await hasFactor(stores.store, ana.id)))
        }
    }

    @Test func hostileUserIdsAreACleanNotFound() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await enrolled(client, clock, "ana")
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let csrf = try await consoleCSRF(client, session: try #require(cookies["rooftop_console"]))
            for id in [ana.id + "%00", "%00", String(ana.id.prefix(5)) + "%00" + String(ana.id.dropFirst(5)), String(repeating: "a", count: 10_240)] {
                let path = "/console/users/\(id)/remove-second-factor"
                let page = try await consoleRequest(client, .get, path, cookies: cookies)
                #expect(page.status == 404 && page.html.contains("There is no such user."), "\(id.prefix(20))")
                let post = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
                #expect(post.status == 404 && post.html.contains("There is no such user."), "\(id.prefix(20))")
            }
            #expect(try await hasFactor(stores.store, ana.id))
            #expect(try await removals(client).isEmpty)
        }
    }

    /// The user is mailed when an owner removes the factor, as when she removes it herself.
    @Test func theUserIsToldWhenAnOwnerRemovesIt() async throws {
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
            let ana = try await enrolled(client, clock, "ana")
            let email = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"email":"ana@example.com"}"#, master: true)
            #expect(email.status == 200, "\(email.json)")
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "ops", password).session)]
            let path = "/console/users/\(ana.id)/remove-second-factor"
            let csrf = try #require(try await consoleRequest(client, .get, path, cookies: cookies).hidden("csrf"))
            #expect(try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"]).status == 200)
            let box = FileOutbox(directory: outbox)
            // Ana's mail (the new address's notice comes too): the removal's notice among it.
            let texts = { try box.list().filter { $0.to == "ana@example.com" }.map { try box.show($0.name) } }
            try await waitUntil { (try? texts().contains { $0.contains("X-Rooftop-Kind: second_factor_removed") }) == true }
            await mail.queue.drain()
        }
    }
}
