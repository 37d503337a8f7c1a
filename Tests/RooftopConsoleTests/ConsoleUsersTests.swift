import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// The users pages' second phase over real HTTP against a real database: prefix search (index
/// ranges, literal text), the objects a user owns, editing a user through the account use case,
/// and "view as this user" matching a find with the user's real session.
@Suite struct ConsoleUsersTests: ConsoleUsersTest {
    let password = "console passphrase 1"

    /// The usernames a users page lists, in order.
    static func listed(_ page: ConsolePage) -> [String] {
        page.html.components(separatedBy: "<tr><td><a href=\"/console/users/").dropFirst().compactMap { row in
            row.split(separator: ">", maxSplits: 1).last?.split(separator: "<", maxSplits: 1).first.map(String.init)
        }
    }

    @Test func prefixSearchFindsBeginningsExactFirstAndTakesTextLiterally() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .readOnly, totp: false)
            _ = try await signUp(client, "anabel", email: "bel@example.com")
            _ = try await signUp(client, "bob", email: "Ana.B@example.com")
            _ = try await signUp(client, "ana", email: "zed@example.com")
            _ = try await signUp(client, "an%x")
            _ = try await signUp(client, "a_b")
            _ = try await signUp(client, "a.*z")
            _ = try await signUp(client, "carl")
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            func search(_ q: String) async throws -> ConsolePage {
                try await consoleRequest(client, .get, "/console/users?q=" + ConsoleTestForm.value(q), cookies: ["rooftop_console": session])
            }
            // Exact first, then the beginnings of usernames and emails (compared as logins compare).
            #expect(Self.listed(try await search("ana")) == ["ana", "anabel", "bob"])
            #expect(Self.listed(try await search("ANA")) == ["ana", "anabel", "bob"])
            #expect(Self.listed(try await search("ａｎａ")) == ["ana", "anabel", "bob"])
            #expect(Self.listed(try await search("ana.b@")) == ["bob"])
            #expect(Self.listed(try await search("an")) == ["an%x", "ana", "anabel", "bob"])
            // LIKE wildcards and regular-expression characters are plain text.
            #expect(Self.listed(try await search("an%")) == ["an%x"])
            #expect(Self.listed(try await search("a_")) == ["a_b"])
            #expect(Self.listed(try await search("a.")) == ["a.*z"])
            #expect(Self.listed(try await search("a.*")) == ["a.*z"])
            #expect(Self.listed(try await search("^a")).isEmpty)
            #expect(Self.listed(try await search(".*")).isEmpty)
            #expect(Self.listed(try await search("%")).isEmpty)
            // NUL and 10 KB of text answer an empty result, not an error.
            for hostile in ["an\u{0}", String(repeating: "a", count: 10_240), "{\"$gt\":\"\"}"] {
                let page = try await search(hostile)
                #expect(page.status == 200)
                #expect(Self.listed(page).isEmpty, "\(hostile.prefix(20))")
            }
        }
    }

    @Test func prefixSearchIsAnIndexRangeAndStopsAtFifty() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .readOnly, totp: false)
            for n in 0..<52 { _ = try await signUp(client, String(format: "bulk%02d", n), email: String(format: "b%02d@example.com", n)) }
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let page = try await consoleRequest(client, .get, "/console/users?q=bulk", cookies: ["rooftop_console": session])
            let names = Self.listed(page)
            #expect(names.count == 50)
            #expect(names == (0..<50).map { String(format: "bulk%02d", $0) })
            // The database answers each range from the key's unique index, never a table scan.
            for key in [InternalField.usernameKey, .emailKey] {
                let request = FindRequest(
                    className: .user, query: AccountAdministration.keyPrefixQuery(key, "bulk"), options: FindOptions(),
                    scope: AccessScope(classes: [.user: .master]))
                let plan = try await stores.store.queryPlan(request)
                // SQLite: `SEARCH _User USING INDEX …_unique__username_key (<expr>>? AND <expr><?)`;
                // PostgreSQL: an index scan on it whose `Index Cond` holds both bounds.
                let index = "unique_\(key.rawValue)"
                let sqliteRange = plan.contains { $0.hasPrefix("SEARCH") && $0.contains(index) && $0.contains("<expr>>? AND <expr><?") }
                let postgresRange =
                    plan.contains { $0.contains("Index Scan") && $0.contains(index) }
                    && plan.contains { $0.contains("Index Cond") && $0.contains(">=") }
                #expect(sqliteRange || postgresRange, "\(plan)")
                #expect(!plan.contains { $0.contains("Seq Scan") || $0.contains("Filter") || $0.hasPrefix("SCAN ") }, "\(plan)")
            }
        }
    }

    @Test func aUsersPageListsTheObjectsPointingAtThem() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: password, role: .readOnly, totp: false)
            let ana = try await signUp(client, "ana")
            let bob = try await signUp(client, "bob")
            func pointer(_ id: String) -> String { #"{"__type":"Pointer","className":"_User","objectId":"\#(id)"}"# }
            var notes: [String] = []
            for n in 0..<52 {
                clock.advance(by: .milliseconds(10))
                let note = try await call(
                    client, .post, "/parse/classes/Note", body: #"{"owner":\#(pointer(ana.id)),"n":\#(n)}"#, master: true)
                notes.append(try #require(note.json["objectId"]?.stringValue))
            }
            let bobsNote = try #require(
                try await call(client, .post, "/parse/classes/Note", body: #"{"owner":\#(pointer(bob.id))}"#, master: true).json["objectId"]?
                    .stringValue)
            let post = try #require(
                try await call(client, .post, "/parse/classes/Post", body: #"{"author":\#(pointer(ana.id))}"#, master: true).json["objectId"]?
                    .stringValue)
            _ = try await call(client, .post, "/parse/classes/Empty", body: #"{"by":\#(pointer(bob.id))}"#, master: true)
            let session = try #require(try await consoleSignIn(client, "ops", password).session)
            let page = try await consoleRequest(client, .get, "/console/users/\(ana.id)", cookies: ["rooftop_console": session])
            #expect(page.status == 200)
            #expect(page.html.contains("Note</a> <small>(owner: 50+)</small>"))
            #expect(page.html.contains("Post</a> <small>(author: 1)</small>"))
            #expect(!page.html.contains(">Empty</a>"), "a class whose pointers name someone else")
            let linked = page.html.components(separatedBy: "href=\"/console/data/Note/").dropFirst().map { String($0.prefix(10)) }
            #expect(linked == notes.suffix(10).reversed(), "the 10 newest, newest first")
            #expect(!page.html.contains(bobsNote))
            #expect(page.html.contains("href=\"/console/data/Post/\(post)\""))
            let encoded = ConsoleTestForm.value(#"{"author":{"__type":"Pointer","className":"_User","objectId":"\#(ana.id)"}}"#)
            #expect(page.html.contains("href=\"/console/data/Post?where=\(encoded)\""))
        }
    }
}

extension ConsoleTestForm {
    /// One value percent-encoded as a query string or form carries it.
    static func value(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
