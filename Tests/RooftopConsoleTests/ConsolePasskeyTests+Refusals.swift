import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// What the console passkey suites share: passkeys seeded straight into the stored `_passkeys`
/// (their stored form, as `StoredPasskey.json` writes it: the console only lists and removes, so
/// no ceremony is needed), and the stored list and audit events read back.
protocol ConsolePasskeyTest: ConsoleUsersTest {}

extension ConsolePasskeyTest {
    var password: String { "console passphrase 1" }
    /// When the seeded passkeys were registered: 2023-11-14 22:13:20 UTC.
    static var created: Int64 { 1_700_000_000_000 }
    /// A day later.
    static var dayAfter: Int64 { 1_700_086_400_000 }

    /// One passkey in its stored form.
    static func passkey(
        _ id: String, name: String, lastUsed: Int64? = nil, eligible: Bool = true, backedUp: Bool = false, regressions: Int = 0
    ) -> JSON {
        var fields: [String: JSON] = [
            "id": .string(id), "key": "pQECAyYgASFYIA", "alg": .number(-7), "name": .string(name), "createdAt": .number(Double(created)),
            "signCount": .number(0), "be": .bool(eligible), "bs": .bool(backedUp), "transports": .array(["internal"]),
        ]
        if let lastUsed { fields["lastUsedAt"] = .number(Double(lastUsed)) }
        if regressions > 0 { fields["regressions"] = .number(Double(regressions)) }
        return .object(fields)
    }

    /// Stores `passkeys` as the user's list (and, `withoutPassword`, drops the password: the
    /// passkeys are then the account's only way in).
    func seed(_ store: any DataStore, _ userId: String, _ passkeys: [JSON], clock: TestClock, withoutPassword: Bool = false) async throws {
        var write = ObjectWrite()
        write.operations = [(FieldPath(field: .internal(.passkeys)), .set(.string(JSONWriter.string(.array(passkeys), sortedKeys: true))))]
        if withoutPassword { write.operations.append((FieldPath(field: .internal(.hashedPassword)), .delete)) }
        _ = try await store.write([
            .update(
                className: .user, objectId: userId, at: clock.now(), write: write, access: .master,
                grant: SchemaGrant(createClass: false, addFields: true))
        ])
    }

    /// The ids of the user's stored passkeys, in order.
    func storedIds(_ store: any DataStore, _ userId: String) async throws -> [String] {
        let request = FindRequest(
            className: .user, query: .field(FieldPath(field: .objectId), .equals(.string(userId))), options: FindOptions(),
            scope: AccessScope(classes: [.user: .master]))
        let user = try #require(try await store.find(request).first)
        guard let text = user.fields[InternalField.passkeys.rawValue]?.stringValue else { return [] }
        return (try JSONParser.parse(text).arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// The `passkey.removed` events recorded.
    func removals(_ client: any TestClientProtocol) async throws -> [JSON] {
        let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22passkey.removed%22%7D", master: true)
        return events.json["results"]?.arrayValue ?? []
    }
}

/// The removals the console refuses, and the one a race allows.
@Suite struct ConsolePasskeyRefusalTests: ConsolePasskeyTest {
    @Test func aReadOnlyAdminIsRefusedTheRemoval() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "viewer", password: password, role: .readOnly, totp: false)
            let ana = try await signUp(client, "ana")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone")], clock: clock)
            let cookies = ["rooftop_console": try #require(try await consoleSignIn(client, "viewer", password).session)]
            let path = "/console/users/\(ana.id)/passkeys/AAAA/remove"
            let csrf = try #require(try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: cookies).hidden("csrf"))
            let confirmation = try await consoleRequest(client, .get, path, cookies: cookies)
            #expect(confirmation.status == 403 && confirmation.html.contains("This admin account may only look"))
            let forged = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
            #expect(forged.status == 403)
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA"])
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
            let ana = try await signUp(client, "ana")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone")], clock: clock)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let other = try await consoleCSRF(client, session: try #require(try await consoleSignIn(client, "other", password).session))
            let mine = try await consoleCSRF(client, session: session)
            let path = "/console/users/\(ana.id)/passkeys/AAAA/remove"
            for token in [nil, "", "wrong", other, mine + "x", String(mine.dropLast())] {
                var form = ["confirm": "ana"]
                form["csrf"] = token
                #expect(try await consoleRequest(client, .post, path, cookies: ["rooftop_console": session], form: form).status == 403)
            }
            let crossed = try await consoleRequest(
                client, .post, path, cookies: ["rooftop_console": session], form: ["csrf": mine, "confirm": "ana"],
                headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossed.status == 403)
            #expect(try await consoleRequest(client, .post, path, form: ["csrf": mine, "confirm": "ana"]).status == 403)
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA"])
            #expect(try await removals(client).isEmpty)
            let done = try await consoleRequest(client, .post, path, cookies: ["rooftop_console": session], form: ["csrf": mine, "confirm": "ana"])
            #expect(done.status == 200 && done.html.contains("The passkey was removed."))
            #expect(try await storedIds(stores.store, ana.id).isEmpty)
        }
    }

    @Test func hostilePasskeyIdsAreACleanRefusal() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            try await seed(stores.store, ana.id, [Self.passkey("AAAA", name: "Phone")], clock: clock)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let cookies = ["rooftop_console": session]
            let csrf = try await consoleCSRF(client, session: session)
            let hostile = [
                "..", "../", "%2E%2E%2F", "%00", "AAAA%00", "AA%00AA", "%3Cx%3E", "AAAA%3D", "AAAA=", "AA+A", "AA%2FA", "BBBB",
                String(repeating: "A", count: 1401), String(repeating: "A", count: 5000), String(repeating: "%3C", count: 1000),
            ]
            for id in hostile {
                let path = "/console/users/\(ana.id)/passkeys/\(id)/remove"
                let page = try await consoleRequest(client, .get, path, cookies: cookies)
                #expect([400, 404].contains(page.status), "\(id.prefix(20)): \(page.status)")
                #expect(!page.html.contains("<x>") && !page.html.contains("id=\"remove-passkey-h\""), "\(id.prefix(20))")
                let post = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "ana"])
                #expect([400, 404].contains(post.status), "\(id.prefix(20)): \(post.status)")
                #expect(!post.html.contains("<x>"), "\(id.prefix(20))")
            }
            // A hostile user id beside a real passkey id: no such user.
            let other = try await consoleRequest(client, .get, "/console/users/\(ana.id)%00/passkeys/AAAA/remove", cookies: cookies)
            #expect(other.status == 404 && other.html.contains("There is no such user."))
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA"])
            #expect(try await removals(client).isEmpty)
        }
    }

    @Test func twoRemovalsRacingRemoveOnce() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .owner, totp: false)
            let ana = try await signUp(client, "ana")
            let ids = ["AAAA", "BBBB", "CCCC"]
            try await seed(stores.store, ana.id, ids.map { Self.passkey($0, name: "Key \($0)") }, clock: clock)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let csrf = try await consoleCSRF(client, session: session)
            @Sendable func remove(_ id: String) async throws -> Int {
                try await consoleRequest(
                    client, .post, "/console/users/\(ana.id)/passkeys/\(id)/remove", cookies: ["rooftop_console": session],
                    form: ["csrf": csrf, "confirm": "ana"]
                ).status
            }
            // The same passkey twice at once: one removal, one event, the other answer a 404.
            async let first = remove("BBBB")
            async let second = remove("BBBB")
            #expect(try await [first, second].sorted() == [200, 404])
            #expect(try await storedIds(stores.store, ana.id) == ["AAAA", "CCCC"])
            #expect(try await removals(client).count == 1)
            // Two different ones at once: the list is written requiring what was read, so neither
            // removal undoes the other.
            async let third = remove("AAAA")
            async let fourth = remove("CCCC")
            #expect(try await [third, fourth] == [200, 200])
            #expect(try await storedIds(stores.store, ana.id).isEmpty)
            #expect(try await removals(client).count == 3)
        }
    }
}
