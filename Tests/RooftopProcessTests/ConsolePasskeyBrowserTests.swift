import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// A passkey's removal in a real headless Chromium (`Tests/Support/console_browser_passkeys.py`):
/// the owner reads the user's passkeys, follows one's "Remove" link, the button stays disabled
/// until the username is typed exactly, and the user's page then lists the other passkey only.
/// Screenshots of the section and the confirmation page land next to `ConsoleBrowserTests`'.
@Suite struct ConsolePasskeyBrowserTests: LiveServerTest {
    /// Two passkeys in their stored form (`StoredPasskey.json`): a synced one, backed up and used,
    /// and a security key never used whose counter once went back.
    static let passkeys: JSON = [
        [
            "id": "AAAA", "key": "pQECAyYgASFYIA", "alg": .number(-7), "name": "Old phone", "createdAt": .number(1_700_000_000_000),
            "lastUsedAt": .number(1_700_086_400_000), "signCount": .number(0), "be": true, "bs": true, "transports": ["internal"],
        ],
        [
            "id": "BB-_", "key": "pQECAyYgASFYIA", "alg": .number(-7), "name": "YubiKey", "createdAt": .number(1_700_000_000_000),
            "signCount": .number(7), "be": false, "bs": false, "transports": ["usb"], "regressions": .number(1),
        ],
    ]

    @Test func anOwnerRemovesAPasskeyInABrowser() async throws {
        let stores = StoreBox()
        let clock = TestClock()
        try await withServer(clock: clock, wrap: stores.keep) { client in
            try await consoleAdmins(try stores.store).create(name: "ops", password: "console passphrase 1", role: .owner, totp: false)
            let signup = try await call(client, .post, "/parse/users", body: #"{"username":"anabel","password":"ana password 1"}"#)
            let userId = try #require(signup.json["objectId"]?.stringValue)
            var write = ObjectWrite()
            write.operations = [(FieldPath(field: .internal(.passkeys)), .set(.string(JSONWriter.string(Self.passkeys, sortedKeys: true))))]
            _ = try await stores.store.write([
                .update(
                    className: .user, objectId: userId, at: clock.now(), write: write, access: .master,
                    grant: SchemaGrant(createClass: false, addFields: true))
            ])
            let port = try #require(client.port)
            let (status, output) = try await BrowserResetTests().run(
                SMTPTestServer.python,
                [
                    SMTPTestServer.root.appendingPathComponent("Tests/Support/console_browser_passkeys.py").path,
                    "http://127.0.0.1:\(port)/console", "ops", "console passphrase 1", userId, "anabel", "Old phone",
                    ConsoleBrowserTests.screenshots.path,
                ])
            try #require(status == 0, "the browser script failed (is chromium-driver installed?): \(output)")
            let seen = try JSONParser.parse(output)
            #expect(seen["section_ja"] == "パスキー")
            #expect(
                seen["rows_before"]
                    == [
                        ["Old phone", "2023-11-14 22:13:20 UTC", "2023-11-15 22:13:20 UTC", "backed up"],
                        ["YubiKey ⚠ counter went back", "2023-11-14 22:13:20 UTC", "never", "this device only"],
                    ], "\(seen["rows_before"] ?? .null)")
            #expect(seen["link_label"] == "Remove")
            #expect(seen["heading"] == "Remove passkey" && seen["passkey_heading"] == "Old phone")
            #expect(seen["enabled_empty"] == false && seen["enabled_partial"] == false && seen["enabled_typed"] == true)
            #expect(seen["notice"] == "The passkey was removed.")
            #expect(seen["rows_after"] == [["YubiKey ⚠ counter went back", "2023-11-14 22:13:20 UTC", "never", "this device only"]])
            let events = try await call(client, .get, "/parse/classes/_Audit?where=%7B%22type%22:%22passkey.removed%22%7D", master: true)
            #expect(events.json["results"]?.arrayValue?.first?["detail"] == "Old phone, by console admin ops", "\(events.json)")
            let overflow = seen["page_overflow"]
            #expect(overflow?["user-passkeys-en"] == false && overflow?["user-passkeys-ja"] == false && overflow?["user-passkey-remove-en"] == false)
            #expect((seen["screenshots"]?.arrayValue?.count ?? 0) == 6)
        }
    }
}
