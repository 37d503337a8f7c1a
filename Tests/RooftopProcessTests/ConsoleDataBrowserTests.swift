import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The data pages in a real headless Chromium (`Tests/Support/console_browser_data.py`): an
/// owner edits an object's ACL in the grid and a user's REST query then finds it; the table is
/// filtered with the builder, sorted by a column and paged. Screenshots of the classes, table,
/// object and role pages at desktop and phone sizes in English and Japanese land beside the
/// other console screenshots.
@Suite struct ConsoleDataBrowserTests: LiveServerTest {
    @Test func anOwnerEditsAnACLAndAQueryResultChanges() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let a = try await signUp(client, "alice")
            let b = try await signUp(client, "bob")
            let note = try await masterCreate(client, "Note", #"{"text":"for alice","ACL":{"\#(a.id)":{"read":true,"write":true}}}"#)
            for rank in 0..<60 {
                _ = try await masterCreate(
                    client, "Item",
                    #"{"rank":\#(rank),"label":"item \#(rank) with a fairly long label to make the table wide","done":\#(rank % 2 == 0),"#
                        + #""at":{"__type":"Date","iso":"2026-03-0\#(rank % 9 + 1)T10:00:00.000Z"},"owner":{"__type":"Pointer","className":"_User","objectId":"\#(a.id)"}}"#
                )
            }
            let role = try await masterCreate(client, "_Role", #"{"name":"Staff","ACL":{"*":{"read":true}}}"#)
            _ = try await call(
                client, .put, "/parse/roles/\(role)",
                body: #"{"users":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(a.id)"}]}}"#, master: true)
            func bobFinds() async throws -> Int {
                try await call(client, .get, "/parse/classes/Note", headers: ["X-Parse-Session-Token": b.token]).json["results"]?.arrayValue?.count
                    ?? -1
            }
            #expect(try await bobFinds() == 0)
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_data.py").path, "http://127.0.0.1:\(port)/console",
                    "ops", "console passphrase 1", note, "bob", role, ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(try await bobFinds() == 1, "bob's query finds the note once the grid gave him read access")
            #expect(seen["acl_notice"] == "Saved.")
            #expect(seen["acl_rows_after"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("bob (\(b.id))") == true } == true)
            let audit = seen["audit_rows"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(audit.contains { $0.contains("admin.object.updated") && $0.contains("ops") && $0.contains("Note \(note)") }, "\(audit)")
            #expect(seen["classes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("Item 60") == true } == true)
            #expect(seen["table_first_page"] == 50)
            #expect(seen["filtered"] == 10)
            #expect(seen["sorted_ranks"] == ["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"])
            #expect(seen["second_page"] == 10)
            #expect(seen["pages_overlap"] == false)
            #expect(seen["classes_ja"] == "データ" && seen["roles_ja"] == "ロール" && seen["role_en"] == "Staff")
            #expect(seen["role_users"]?.arrayValue?.first?.stringValue?.hasPrefix("alice") == true)
            for (page, overflows) in seen["page_overflow"]?.objectValue ?? [:] { #expect(overflows == false, "\(page) scrolls sideways on a phone") }
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 20)
        }
    }
}
