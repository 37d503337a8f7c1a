import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The schema page in a real headless Chromium (`Tests/Support/console_browser_schema.py`): an
/// owner adds a field with the form and lets only signed-in users create; then the REST API,
/// with the master key and without, shows and enforces both. Screenshots of the schema pages at
/// desktop and phone sizes, in English and Japanese, land beside the other console pages'.
@Suite struct ConsoleSchemaBrowserTests: LiveServerTest {
    @Test func anOwnerAddsAFieldAndSetsPermissionsInABrowser() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let body = #"{"fields":{"title":{"type":"String"},"owner":{"type":"Pointer","targetClass":"_User"}}}"#
            #expect(try await call(client, .post, "/parse/schemas/GameScore", body: body, master: true).status == 200)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_schema.py").path,
                    "http://127.0.0.1:\(port)/console", "ops", "console passphrase 1", "GameScore", ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["list_title"] == "Schema")
            #expect(seen["list_title_ja"] == "スキーマ")
            #expect(seen["class_title"] == "GameScore")
            #expect(seen["field_notice"] == "The schema was saved.")
            #expect(seen["field_rows"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("score Number") == true } == true)
            #expect(seen["permissions_notice"] == "The schema was saved.")
            #expect(seen["create_auth_checked"] == true)
            let words = seen["in_words"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(words.contains("Signed-in users can create."))
            #expect(words.contains("Anyone can read (get, find, count), update, delete and add fields."))
            #expect(seen["in_words_ja"]?.arrayValue?.contains("サインインしたユーザーは作成ができます。") == true)
            #expect(seen["permissions_ja"] == "クラスレベル権限")
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 8)
            for page in ["schema-list", "schema-class"] {
                for language in ["en", "ja"] {
                    #expect(seen["page_overflow"]?["\(page)-\(language)"] == false, "\(page) \(language): the page scrolls sideways on a phone")
                }
            }
            // The REST API with the master key shows the field; a string in it is refused (111).
            let schema = try await call(client, .get, "/parse/schemas/GameScore", master: true).json
            #expect(schema["fields"]?["score"] == ["type": "Number"])
            #expect(try await call(client, .post, "/parse/classes/GameScore", body: #"{"score":"high"}"#, master: true).json["code"] == 111)
            #expect(schema["classLevelPermissions"]?["create"] == ["requiresAuthentication": true])
            // The grid's permission is enforced: no session, refused; with one, created.
            let anonymous = try await call(client, .post, "/parse/classes/GameScore", body: #"{"score":1}"#)
            #expect(anonymous.json["error"] == "Permission denied, user needs to be authenticated.")
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1"}"#)
            let token = try #require(signup.json["sessionToken"]?.stringValue)
            let created = try await call(
                client, .post, "/parse/classes/GameScore", body: #"{"score":1}"#, headers: ["X-Parse-Session-Token": token])
            #expect(created.status == 201)
        }
    }
}
