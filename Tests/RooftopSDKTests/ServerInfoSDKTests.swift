import Foundation
import Rooftop
import RooftopCore
import Testing

/// The server reports the version the SDK carries: one version for the whole package.
extension SDKTests {
    @Suite struct ServerInfoSDKTests {
        @Test func serverInfoReportsTheSDKVersion() async throws {
            try await withSDK { server, _ in
                let (status, info) = try await server.rest("GET", "/serverInfo", master: true)
                #expect(status == 200)
                #expect(info["parseServerVersion"]?.stringValue == Rooftop.version)
            }
        }
    }
}
