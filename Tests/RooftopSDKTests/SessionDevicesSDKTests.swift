import Foundation
import Rooftop
import RooftopCore
import Testing

/// Two devices (two SDK storage directories, so two installations) signed in as one user: each
/// lists both sessions with their device names, one signs the other out, and the other finds
/// itself logged out on its next call.
extension SDKTests {
    @Suite struct SessionDevicesSDKTests {
        @Test func aDeviceSignsTheOtherOut() async throws {
            try await withSDK { server, phoneStorage in
                let laptopStorage = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-sdk-laptop-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: laptopStorage) }

                // The phone: sign-up registers the device (its name goes with its installation).
                try RTInstallation.current().deviceName = "Ana's phone"
                let ana = RTUser()
                ana.username = "ana"
                ana.password = "pass of ana"
                try await ana.signUp()

                // The laptop: the same user logs in.
                Rooftop.initialize(with: sdkConfiguration(server, storage: laptopStorage))
                try RTInstallation.current().deviceName = "Ana's laptop"
                let onLaptop = try await RTUser.logIn(username: "ana", password: "pass of ana")
                let listed = try await onLaptop.sessions()
                #expect(Set(listed.compactMap { $0.deviceName }) == ["Ana's phone", "Ana's laptop"])
                let current = listed.filter { $0.isCurrent }
                #expect(current.count == 1)
                #expect(current.first?.deviceName == "Ana's laptop")
                #expect(current.first?.deviceType == "linux" || current.first?.deviceType == "osx")
                #expect(listed.allSatisfy { $0.createdAt != nil && $0.lastUsedAt != nil && $0.createdAddress == "127.0.0.0/24" })

                // The blocking and completion-handler forms.
                let counted = try await onThread { try onLaptop.sessions().count }
                #expect(counted == 2)
                let revoked: (Int?, NSError?) = await callback { finish in onLaptop.signOutOtherDevicesInBackground { finish(($0, $1)) } }
                #expect(revoked.0 == 1 && revoked.1 == nil)
                #expect(try await onLaptop.sessions().count == 1)

                // Back on the phone: its next call finds its session gone, and Ana logged out there.
                Rooftop.initialize(with: sdkConfiguration(server, storage: phoneStorage))
                let onPhone = try #require(RTUser.currentUser())
                await #expect { try await onPhone.sessions() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }
                #expect(RTUser.currentUser() == nil)
                #expect(onPhone.state == .loggedOut)

                // The laptop still works; revoking its own session logs it out.
                Rooftop.initialize(with: sdkConfiguration(server, storage: laptopStorage))
                let again = try #require(RTUser.currentUser())
                let own = try #require(try await again.sessions().first)
                try await own.revoke()
                #expect(RTUser.currentUser() == nil)
                let (_, left) = try await server.rest("GET", "/sessions", master: true)
                #expect(left["results"]?.arrayValue?.isEmpty == true)
            }
        }
    }
}
