import Foundation
import RooftopCore
import RooftopTesting
import Testing

/// Session devices on two nodes: two devices of one user, each signed in through a different node, see
/// both sessions by name; "sign out my other devices" on one node is enforced at once by the
/// other, and so is revoking one session.
extension MultiNodeTests {
    static let phone = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
    static let laptop = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    static let tablet = "b3d1e0a4-5f2c-4e8b-9a7d-2c6f1e9b8a70"

    /// Saves `device`'s installation on node `index`, then logs ana in from it there.
    func logIn(_ cluster: ClusterNodes, node index: Int, from device: String, name: String) async throws -> String {
        let installation = #"{"deviceType":"ios","deviceName":"\#(name)","appName":"Todo","appVersion":"2.1"}"#
        let headers = ["X-Parse-Installation-Id": device]
        #expect(try await cluster.call(index, "POST", "/installations", body: installation, headers: headers).0 == 201)
        let (status, login) = try await cluster.call(
            index, "POST", "/login", body: #"{"username":"ana","password":"correct horse battery"}"#, headers: headers)
        try #require(status == 200, "\(login)")
        return try #require(login["sessionToken"]?.stringValue)
    }

    /// The sessions node `index` lists for `token`: device name → whether it is the current one.
    func devices(_ cluster: ClusterNodes, node index: Int, _ token: String) async throws -> [String: Bool] {
        let (_, answer) = try await cluster.call(index, "GET", "/sessions", token: token)
        var result: [String: Bool] = [:]
        for session in answer["results"]?.arrayValue ?? [] {
            result[session["deviceName"]?.stringValue ?? "?"] = session["current"] == true
        }
        return result
    }

    @Test func otherDevicesSignedOutOnOneNodeAreRefusedOnTheOther() async throws {
        try await withCluster { cluster in
            _ = try await signUp(cluster, "ana")
            let phone = try await logIn(cluster, node: 0, from: Self.phone, name: "Ana's iPhone")
            let laptop = try await logIn(cluster, node: 1, from: Self.laptop, name: "Ana's MacBook")
            // Each device lists both (and the sign-up's), by name, itself marked as current;
            // each node has the other's session cached after this.
            #expect(try await devices(cluster, node: 0, phone) == ["Ana's iPhone": true, "Ana's MacBook": false, "?": false])
            #expect(try await devices(cluster, node: 1, laptop) == ["Ana's iPhone": false, "Ana's MacBook": true, "?": false])
            #expect(try await cluster.call(1, "GET", "/users/me", token: phone).0 == 200)
            #expect(try await cluster.call(0, "GET", "/users/me", token: laptop).0 == 200)

            // The phone, on node 0, signs every other device out; the laptop's next request on
            // node 1 is refused within the cache bus's delivery time.
            let (status, revoked) = try await cluster.call(0, "POST", "/sessions/revokeOthers", token: phone)
            #expect(status == 200 && revoked == ["revoked": 2])
            let start = ContinuousClock.now
            try await waitUntil(.seconds(1)) { try await cluster.call(1, "GET", "/users/me", token: laptop).1["code"] == 209 }
            print("revokeOthers on node 0 refused on node 1 after \(ContinuousClock.now - start)")
            #expect(try await devices(cluster, node: 1, phone) == ["Ana's iPhone": true])

            // One session revoked on node 1 is refused on node 0.
            let tablet = try await logIn(cluster, node: 0, from: Self.tablet, name: "Ana's iPad")
            #expect(try await cluster.call(0, "GET", "/users/me", token: tablet).0 == 200)  // cached on node 0
            let (_, mine) = try await cluster.call(1, "GET", "/sessions/me", token: tablet)
            let id = try #require(mine["objectId"]?.stringValue)
            #expect(try await cluster.call(1, "DELETE", "/sessions/\(id)", token: phone).0 == 200)
            try await waitUntil(.seconds(1)) { try await cluster.call(0, "GET", "/users/me", token: tablet).1["code"] == 209 }
            #expect(try await cluster.call(0, "GET", "/users/me", token: phone).0 == 200)
        }
    }
}
