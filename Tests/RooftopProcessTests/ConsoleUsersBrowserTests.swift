import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The users pages in a real headless Chromium (`Tests/Support/console_browser_users.py`): an
/// owner finds a user by the beginning of their name, edits a field, and views a class as them
/// (the same objects the user's session finds). Screenshots at desktop and phone sizes, in
/// English and Japanese, land next to `ConsoleBrowserTests`'.
@Suite struct ConsoleUsersBrowserTests: LiveServerTest {
    @Test func anOwnerFindsEditsAndViewsAsAUserInABrowser() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let signup = try await call(
                client, .post, "/parse/users", body: #"{"username":"anabel","password":"ana password 1","email":"anabel@example.com"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"anatole","password":"ana password 1"}"#)
            _ = try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"bob password 1"}"#)
            #expect(try await call(client, .put, "/parse/users/\(userId)", body: #"{"nickname":"Bel"}"#, master: true).status == 200)
            let owner = #"{"__type":"Pointer","className":"_User","objectId":"\#(userId)"}"#
            let mine = try await call(
                client, .post, "/parse/classes/Note", body: #"{"owner":\#(owner),"text":"hers","ACL":{"\#(userId)":{"read":true}}}"#,
                master: true)
            let noteId = try #require(mine.json["objectId"]?.stringValue)
            _ = try await call(client, .post, "/parse/classes/Note", body: #"{"text":"public","ACL":{"*":{"read":true}}}"#, master: true)
            _ = try await call(client, .post, "/parse/classes/Note", body: #"{"text":"nobody's","ACL":{}}"#, master: true)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_users.py").path, "http://127.0.0.1:\(port)/console",
                    "ops", "console passphrase 1", "ana", "anabel", "Note", ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["found"] == ["anabel", "anatole"])
            #expect(seen["owned"] == [.string(noteId)])
            #expect(seen["edit_notice"] == "The user was saved.")
            #expect(seen["nickname_after"] == "Nina")
            #expect(try await call(client, .get, "/parse/users/\(userId)", master: true).json["nickname"] == "Nina")
            let rest = try await call(client, .get, "/parse/classes/Note?limit=50", headers: ["X-Parse-Session-Token": token])
            let expected = JSON.array(rest.json["results"]?.arrayValue?.compactMap { $0["objectId"] } ?? [])
            #expect(expected.arrayValue?.count == 2)
            #expect(seen["viewed"] == expected)
            #expect(seen["viewed_ja"] == expected)
            #expect(seen["search_ja"] == "ユーザー名・メールアドレス（先頭部分でも可）・objectId")
            #expect(seen["edit_ja"] == "フィールドの編集")
            #expect(seen["viewas_ja"] == "このユーザーとして表示: anabel")
            for page in ["user-search", "user-edit", "user-owned", "user-viewas"] {
                for language in ["en", "ja"] {
                    #expect(
                        seen["page_overflow"]?["\(page)-\(language)"] == false, "\(page) \(language) \(seen["wide"]?["\(page)-\(language)"] ?? .null)"
                    )
                }
            }
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 16)
        }
    }
}
