import Foundation
import Rooftop
import RooftopCore
import Testing

/// `RTInstallation.current()`: one installation per app install, saved to `/installations`
/// without a session, found again after a restart by its installation id.
extension SDKTests {
    @Suite struct InstallationSDKTests {
        @Test func currentInstallationIsSavedOnceAndUpdatedAfterRestarts() async throws {
            try await withSDK { server, storage in
                let installation = try RTInstallation.current()
                #expect(try RTInstallation.current() === installation)
                let id = try #require(installation.installationId)
                #expect(UUID(uuidString: id) != nil && id == id.lowercased())
                #expect(installation.deviceType == "linux" || installation.deviceType == "osx")
                installation.setDeviceToken(from: Data([0x00, 0xAB, 0x10, 0xFF]))
                #expect(installation.deviceToken == "00ab10ff")
                installation.channels = ["news", ""]
                try await installation.save()
                let objectId = try #require(installation.objectId)

                // Saved without a session even while a user is signed in, then updated in place.
                let (status, _) = try await server.rest("POST", "/users", body: #"{"username":"ana","password":"pw"}"#)
                try #require(status == 201)
                _ = try await RTUser.logIn(username: "ana", password: "pw")
                installation.badge = 3
                try await installation.save()
                #expect(installation.objectId == objectId)

                // The same install after a restart: a new process, the same storage directory.
                Rooftop.initialize(with: sdkConfiguration(server, storage: storage))
                let restarted = try RTInstallation.current()
                #expect(restarted !== installation)
                #expect(restarted.installationId == id)
                restarted.channels = ["sport"]
                try await restarted.save()
                #expect(restarted.objectId == objectId)

                let (_, all) = try await server.rest("GET", "/installations", master: true)
                let results = try #require(all["results"]?.arrayValue)
                #expect(results.count == 1)
                #expect(results.first?["installationId"]?.stringValue == id)
                #expect(results.first?["deviceToken"] == "00ab10ff")
                #expect(results.first?["channels"] == ["sport"])
                #expect(results.first?["badge"] == 3)
                #expect(results.first?["parseVersion"]?.stringValue == Rooftop.version)

                // A client can't list installations; the server says so.
                await #expect(throws: RTError.self) { try await RTQuery(className: "_Installation").findObjects() }
            }
        }
    }
}
