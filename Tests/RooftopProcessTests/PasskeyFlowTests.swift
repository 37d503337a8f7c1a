import Foundation
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Rooftop's passkey routes against the Python software passkey that fido2's server proved
/// (`PasskeyStandInTests`): `Tests/Support/passkey_flow.py` registers, lists, renames and signs in
/// (without and with a username) over real HTTP, then checks each hostile attempt is refused with
/// `101 Invalid passkey.` and opens no session.
@Suite struct PasskeyFlowTests: LiveServerTest {
    @Test(arguments: ["ES256", "EdDSA", "RS256"])
    func theProvenStandInRegistersAndSignsInAndEveryForgeryIsRefused(_ algorithm: String) async throws {
        var accounts = AccountsConfiguration()
        accounts.passkeys.relyingPartyId = "localhost"
        accounts.passkeys.origins = ["http://localhost:8443"]
        try await withServer(accounts: accounts) { client in
            let port = try #require(client.port)
            let (status, output, errors) = try await PasskeyStandInTests().python([
                PasskeyStandInTests.support.appendingPathComponent("passkey_flow.py").path, "--base-url", "http://127.0.0.1:\(port)/parse",
                "--app-id", testAppId, "--origin", "http://localhost:8443", "--master-key", testMasterKey, "--alg", algorithm,
            ])
            #expect(status == 0, "\(output)\n\(errors)")
            let report = try JSONParser.parse(output)
            let steps = report["steps"]?.arrayValue ?? []
            #expect(steps.count >= 15, "\(output)")
            let failed = steps.filter { $0["ok"] == false }
            #expect(failed.isEmpty, "\(failed)")
        }
    }
}
