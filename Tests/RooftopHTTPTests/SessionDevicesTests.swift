import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Sessions as devices: each session says which device and app it is, where it was opened
/// (coarsely) and when it was last used; the user sees which one is this device and can sign
/// out every other one in one call.
@Suite struct SessionDevicesTests: LiveServerTest {
    static let phone = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
    static let laptop = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    /// Saves `device`'s installation, then logs in from it: the session token.
    func logIn(_ client: any TestClientProtocol, from device: String, _ installation: String) async throws -> String {
        #expect(try await call(client, .post, "/parse/installations", body: installation, headers: ["X-Parse-Installation-Id": device]).status == 201)
        let login = try await call(
            client, .post, "/parse/login", body: #"{"username":"ana","password":"a long password 1"}"#, headers: ["X-Parse-Installation-Id": device])
        return try #require(login.json["sessionToken"]?.stringValue, "\(login.json)")
    }

    @Test func sessionsTellTheirDevicesAndOthersCanBeSignedOut() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"a long password 1"}"#).status == 201)
            let phone = try await logIn(
                client, from: Self.phone, #"{"deviceType":"ios","deviceName":"Ana's iPhone","appName":"Todo","appVersion":"2.1"}"#)
            let laptop = try await logIn(client, from: Self.laptop, #"{"deviceType":"osx","deviceName":"Ana's MacBook","appVersion":"2.0"}"#)

            let listed = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": phone])
            let sessions = try #require(listed.json["results"]?.arrayValue)
            let fromPhone = try #require(sessions.first { $0["installationId"] == .string(Self.phone) })
            let fromLaptop = try #require(sessions.first { $0["installationId"] == .string(Self.laptop) })
            #expect(fromPhone["deviceName"] == "Ana's iPhone" && fromPhone["deviceType"] == "ios" && fromPhone["appVersion"] == "2.1")
            #expect(fromPhone["appName"] == "Todo" && fromLaptop["deviceName"] == "Ana's MacBook")
            #expect(fromPhone["createdAddress"] == "127.0.0.0/24")
            #expect(fromPhone["lastUsedAt"]?["__type"] == "Date")
            #expect(fromPhone["current"] == true && fromLaptop["current"] == false)
            #expect(sessions.allSatisfy { $0["sessionToken"] == nil })
            // The master key's list marks no session as its own.
            #expect(try await call(client, .get, "/parse/sessions", master: true).json["results"]?.arrayValue?.first?["current"] == nil)

            // Used again after a while: `lastUsedAt` moves (written in the background).
            let firstUse = fromLaptop["lastUsedAt"]?["iso"]?.stringValue
            clock.advance(by: .seconds(6 * 60))
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": laptop]).status == 200)
            try await waitUntil {
                let now = try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": laptop]).json["results"]?.arrayValue
                return now?.first { $0["installationId"] == .string(Self.laptop) }?["lastUsedAt"]?["iso"]?.stringValue != firstUse
            }

            // Clients can't write the server's fields, the device's included: a stolen session
            // (the laptop's here) can't rename itself, or another session, to pose as the phone.
            let phoneId = try #require(fromPhone["objectId"]?.stringValue)
            let laptopId = try #require(fromLaptop["objectId"]?.stringValue)
            for body in [
                #"{"lastUsedAt":{"__type":"Date","iso":"2000-01-01T00:00:00.000Z"}}"#, #"{"createdAddress":"1.2.3.0/24"}"#, #"{"current":true}"#,
                #"{"deviceName":"Ana's iPhone"}"#, #"{"deviceType":"ios"}"#, #"{"appName":"Todo"}"#, #"{"appVersion":"2.1"}"#,
                #"{"installationId":"\#(Self.phone)"}"#, #"{"deviceName":{"__op":"Delete"}}"#,
                // Dot paths into the server's fields, whatever their type in the schema.
                #"{"createdWith.authProvider":"password"}"#, #"{"deviceName.x":"y"}"#, #"{"restricted.x":true}"#,
            ] {
                for (id, token) in [(laptopId, laptop), (phoneId, phone)] {
                    let reply = try await call(client, .put, "/parse/sessions/\(id)", body: body, headers: ["X-Parse-Session-Token": token])
                    #expect(reply.json["code"] == 105, "\(body): \(reply.json)")
                }
                #expect(try await call(client, .put, "/parse/sessions/\(laptopId)", body: body, master: true).json["code"] == 105, "\(body)")
            }
            // Nor open a further session that names itself.
            for body in [#"{"deviceName":"Ana's iPhone","deviceType":"ios"}"#, #"{"createdWith.authProvider":"password"}"#, #"{"appName.x":"y"}"#] {
                let posing = try await call(client, .post, "/parse/sessions", body: body, headers: ["X-Parse-Session-Token": laptop])
                #expect(posing.json["code"] == 105, "\(body): \(posing.json)")
            }
            let after = try #require(
                try await call(client, .get, "/parse/sessions", headers: ["X-Parse-Session-Token": phone]).json["results"]?.arrayValue)
            let laptopNow = try #require(after.first { $0["objectId"]?.stringValue == laptopId })
            #expect(
                laptopNow["deviceName"] == "Ana's MacBook" && laptopNow["deviceType"] == "osx" && laptopNow["installationId"] == .string(Self.laptop))
            #expect(after.count == sessions.count)

            // From the laptop: sign out every other device.
            let revoked = try await call(client, .post, "/parse/sessions/revokeOthers", headers: ["X-Parse-Session-Token": laptop])
            #expect(revoked.json == ["revoked": 2])  // the phone and the sign-up's own session
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": phone]).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/users/me", headers: ["X-Parse-Session-Token": laptop]).status == 200)
            #expect(try await call(client, .post, "/parse/sessions/revokeOthers", headers: ["X-Parse-Session-Token": laptop]).json == ["revoked": 0])
            // Without a session: 209; the master key is not a session.
            #expect(try await call(client, .post, "/parse/sessions/revokeOthers").json["code"] == 209)
            #expect(try await call(client, .post, "/parse/sessions/revokeOthers", master: true).json["code"] == 209)
        }
    }

    @Test func coarseAddressesHideTheHost() {
        #expect(SessionDevices.coarseAddress("203.0.113.57") == "203.0.113.0/24")
        #expect(SessionDevices.coarseAddress("2001:db8:85a3:8d3:1319:8a2e:370:7348") == "2001:db8:85a3::/48")
        #expect(SessionDevices.coarseAddress("::1") == "0:0:0::/48")
        #expect(SessionDevices.coarseAddress("2001:DB8::1") == "2001:db8:0::/48")
        #expect(SessionDevices.coarseAddress("1:2:3:4:5:6:7:8:9") == "unknown")
        #expect(SessionDevices.coarseAddress("not an address") == "unknown")
    }
}
