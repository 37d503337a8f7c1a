import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// `/installations` and `/classes/_Installation`: a device saves its own installation without a
/// session, found again by `installationId` or `deviceToken`; listing and deleting need the master key.
@Suite struct InstallationRoutesTests: LiveServerTest {
    static let deviceA = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    static let deviceB = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    static let apnsToken = String(repeating: "AB", count: 32)

    func device(_ id: String) -> [String: String] { ["X-Parse-Installation-Id": id] }

    /// Both paths, the same rules.
    @Test(arguments: ["/parse/installations", "/parse/classes/_Installation"])
    func createThenSaveAgainUpdates(_ path: String) async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let body = #"{"installationId":"\#(Self.deviceA)","deviceType":"ios","channels":["news"],"timeZone":"Europe/Paris","badge":0}"#
            let created = try await call(client, .post, path, body: body)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(created.json["createdAt"]?.stringValue != nil)

            // The same device saving again updates its installation (200, as in Parse).
            let again = try await call(
                client, .post, path,
                body: #"{"installationId":"\#(Self.deviceA)","deviceType":"ios","appVersion":"2.0","badge":{"__op":"Increment","amount":3}}"#)
            #expect(again.status == 200)
            #expect(again.json["objectId"]?.stringValue == id)
            #expect(again.json["badge"] == 3)

            let stored = try await call(client, .get, "\(path)/\(id)", master: true)
            #expect(stored.json["installationId"]?.stringValue == Self.deviceA.lowercased())
            #expect(stored.json["appVersion"] == "2.0")
            #expect(stored.json["channels"] == ["news"])
            #expect(stored.json["badge"] == 3)

            let all = try await call(client, .get, path, master: true)
            #expect(all.json["results"]?.arrayValue?.count == 1)
        }
    }

    /// A device reads and updates its own installation by id with its header, not another's.
    @Test func clientsReachOnlyTheirOwnInstallation() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let mine = try #require(
                try await call(client, .post, "/parse/installations", body: #"{"deviceType":"android"}"#, headers: device(Self.deviceA)).json[
                    "objectId"]?.stringValue)
            let theirs = try #require(
                try await call(client, .post, "/parse/installations", body: #"{"deviceType":"ios"}"#, headers: device(Self.deviceB)).json[
                    "objectId"]?.stringValue)

            // The header's id was stored (lowercased).
            let got = try await call(client, .get, "/parse/installations/\(mine)", headers: device(Self.deviceA))
            #expect(got.status == 200)
            #expect(got.json["installationId"]?.stringValue == Self.deviceA.lowercased())
            #expect(try await call(client, .get, "/parse/classes/_Installation/\(mine)", headers: device(Self.deviceA)).status == 200)
            #expect(try await call(client, .get, "/parse/installations/\(theirs)", headers: device(Self.deviceA)).status == 404)
            #expect(try await call(client, .get, "/parse/installations/\(mine)").status == 404)

            let update = try await call(client, .put, "/parse/installations/\(mine)", body: #"{"channels":["a","b"]}"#, headers: device(Self.deviceA))
            #expect(update.status == 200)
            #expect(update.json["updatedAt"]?.stringValue != nil)

            // Another device's installation, updated by id: not found, and unchanged.
            for path in ["/parse/installations/\(theirs)", "/parse/classes/_Installation/\(theirs)"] {
                let hijack = try await call(client, .put, path, body: #"{"channels":["evil"]}"#, headers: device(Self.deviceA))
                #expect(hijack.status == 404)
                #expect(hijack.json["code"] == 101)
                // Naming yet another id in the body is no way around it.
                let named = try await call(
                    client, .put, path, body: #"{"installationId":"0d6b4c2e-6b0a-4f38-9a1f-2b8d3f9c1e55","channels":["evil"]}"#,
                    headers: device(Self.deviceA))
                #expect(named.json["code"] == 101)
            }
            #expect(try await call(client, .put, "/parse/installations/\(theirs)", body: #"{"channels":["evil"]}"#).status == 404)
            let untouched = try await call(client, .get, "/parse/installations/\(theirs)", master: true)
            #expect(untouched.json["channels"] == nil)
        }
    }

    /// Listing and deleting need the master key, with Parse's messages; a replayed delete is 101.
    @Test func findAndDeleteNeedTheMasterKey() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try #require(
                try await call(client, .post, "/parse/installations", body: #"{"deviceType":"web"}"#, headers: device(Self.deviceA)).json[
                    "objectId"]?.stringValue)
            for path in ["/parse/installations", "/parse/classes/_Installation"] {
                let find = try await call(client, .get, path, headers: device(Self.deviceA))
                #expect(find.status == 400)
                #expect(
                    find.json == ["code": 119, "error": "Clients aren't allowed to perform the find operation on the installation collection."])
                let delete = try await call(client, .delete, "\(path)/\(id)", headers: device(Self.deviceA))
                #expect(delete.json["code"] == 119)
                #expect(delete.json["error"] == "Clients aren't allowed to perform the delete operation on the installation collection.")
            }
            let query = try await call(
                client, .get, "/parse/installations?where=\(encoded(#"{"deviceType":"web"}"#))", master: true)
            #expect(query.json["results"]?.arrayValue?.count == 1)
            #expect(try await call(client, .delete, "/parse/installations/\(id)", master: true).json == [:])
            let replay = try await call(client, .delete, "/parse/installations/\(id)", master: true)
            #expect(replay.status == 404)
            #expect(replay.json["code"] == 101)
        }
    }

    /// `installationId` and `deviceType` never change once set; both are required on create.
    @Test func identityFieldsAreRequiredAndImmutable() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let missing = try await call(client, .post, "/parse/installations", body: #"{"deviceType":"ios"}"#)
            #expect(missing.json["code"] == 135)
            let noType = try await call(client, .post, "/parse/installations", body: #"{"installationId":"\#(Self.deviceA)"}"#)
            #expect(noType.json == ["code": 135, "error": "deviceType must be specified in this operation"])
            let id = try #require(
                try await call(client, .post, "/parse/installations", body: #"{"installationId":"\#(Self.deviceA)","deviceType":"ios"}"#).json[
                    "objectId"]?.stringValue)
            let path = "/parse/installations/\(id)"
            let changeId = try await call(client, .put, path, body: #"{"installationId":"\#(Self.deviceB)"}"#, master: true)
            #expect(changeId.json == ["code": 136, "error": "installationId may not be changed in this operation"])
            let changeType = try await call(client, .put, path, body: #"{"deviceType":"android"}"#, headers: device(Self.deviceA))
            #expect(changeType.json == ["code": 136, "error": "deviceType may not be changed in this operation"])
            let dropId = try await call(client, .put, path, body: #"{"installationId":{"__op":"Delete"}}"#, master: true)
            #expect(dropId.json["code"] == 136)
            // The same values again are fine (an SDK sends every field on each save).
            let same = try await call(
                client, .put, path, body: #"{"installationId":"\#(Self.deviceA.lowercased())","deviceType":"ios"}"#, headers: device(Self.deviceA))
            #expect(same.status == 200)
            #expect(try await call(client, .get, path, master: true).json["deviceType"] == "ios")
        }
    }

    /// A device token moves with the device: an installation holding it without an installation
    /// id is merged into, and others holding it are deleted, as Parse does.
    @Test func deviceTokensAreDeduplicated() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            // A token-only installation (as old REST clients saved them), then the device saves
            // with its installation id and the same token (upper case: APNs tokens are lowercased).
            let legacy = try await call(client, .post, "/parse/installations", body: #"{"deviceType":"ios","deviceToken":"\#(Self.apnsToken)"}"#)
            let legacyId = try #require(legacy.json["objectId"]?.stringValue)
            let claimed = try await call(
                client, .post, "/parse/installations",
                body: #"{"installationId":"\#(Self.deviceA)","deviceType":"ios","deviceToken":"\#(Self.apnsToken)"}"#)
            #expect(claimed.status == 200)
            #expect(claimed.json["objectId"]?.stringValue == legacyId)
            let merged = try await call(client, .get, "/parse/installations/\(legacyId)", master: true)
            #expect(merged.json["installationId"]?.stringValue == Self.deviceA.lowercased())
            #expect(merged.json["deviceToken"]?.stringValue == Self.apnsToken.lowercased())

            // The token moves to another installation id (a reinstall): the old one goes.
            let moved = try await call(
                client, .post, "/parse/installations",
                body: #"{"installationId":"\#(Self.deviceB)","deviceType":"ios","deviceToken":"\#(Self.apnsToken.lowercased())"}"#)
            #expect(moved.status == 201)
            let all = try #require(try await call(client, .get, "/parse/installations", master: true).json["results"]?.arrayValue)
            #expect(all.count == 1)
            #expect(all.first?["installationId"]?.stringValue == Self.deviceB)

            // The device's own installation gets a token another installation holds: that one goes.
            let third = "0d6b4c2e-6b0a-4f38-9a1f-2b8d3f9c1e55"
            let thirdId = try #require(
                try await call(client, .post, "/parse/installations", body: #"{"installationId":"\#(third)","deviceType":"ios"}"#).json[
                    "objectId"]?.stringValue)
            let retoken = try await call(
                client, .put, "/parse/installations/\(thirdId)",
                body: #"{"installationId":"\#(third)","deviceToken":"\#(Self.apnsToken.lowercased())"}"#, headers: device(third))
            #expect(retoken.status == 200)
            let left = try #require(try await call(client, .get, "/parse/installations", master: true).json["results"]?.arrayValue)
            #expect(left.map { $0["objectId"]?.stringValue } == [thirdId])
        }
    }

    /// The requests unmodified Parse SDKs send: the JS SDK's (keys and `_method` in a text body),
    /// the iOS SDK's first save and its later `AddUnique` of a channel.
    @Test func parseSDKSavesWork() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let keys = #""_ApplicationId":"\#(testAppId)","_ClientVersion":"js5.3.0","_InstallationId":"\#(Self.deviceB)""#
            let js = try await call(
                client, .post, "/parse/classes/_Installation",
                body: #"{"deviceType":"web","installationId":"\#(Self.deviceB)","parseVersion":"5.3.0",\#(keys)}"#, appId: "")
            #expect(js.status == 201)
            let jsId = try #require(js.json["objectId"]?.stringValue)
            let fetched = try await call(client, .post, "/parse/classes/_Installation/\(jsId)", body: #"{"_method":"GET",\#(keys)}"#, appId: "")
            #expect(fetched.json["deviceType"] == "web")

            let ios = try await call(
                client, .post, "/parse/classes/_Installation",
                body: #"{"deviceType":"ios","installationId":"\#(Self.deviceA.lowercased())","timeZone":"America/Los_Angeles","#
                    + #""appName":"Notes","appVersion":"1","appIdentifier":"com.example.notes","parseVersion":"1.19.4","#
                    + #""localeIdentifier":"en-US","badge":0,"deviceToken":"\#(Self.apnsToken.lowercased())"}"#,
                headers: device(Self.deviceA.lowercased()))
            #expect(ios.status == 201)
            let iosId = try #require(ios.json["objectId"]?.stringValue)
            let subscribe = try await call(
                client, .put, "/parse/classes/_Installation/\(iosId)",
                body: #"{"channels":{"__op":"AddUnique","objects":["Giants"]},"badge":{"__op":"Increment","amount":1}}"#,
                headers: device(Self.deviceA.lowercased()))
            #expect(subscribe.status == 200)
            #expect(subscribe.json["badge"] == 1)
            let stored = try await call(client, .get, "/parse/installations/\(iosId)", master: true)
            #expect(stored.json["channels"] == ["Giants"])
            #expect(stored.json["appIdentifier"] == "com.example.notes")
        }
    }

    /// Ten first saves of one device at once, on ten connections: one installation, every save
    /// answered (201 for the one that created it, 200 for the others).
    @Test func concurrentFirstSavesMakeOneInstallation() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let port = try #require(client.port)
            let body = #"{"installationId":"\#(Self.deviceA)","deviceType":"ios","channels":{"__op":"AddUnique","objects":["news"]}}"#
            let request =
                "POST /parse/installations HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Parse-Application-Id: \(testAppId)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let statuses = await parallelRequests(port: port, Array(repeating: request, count: 10))
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count == 9, "\(statuses)")
            let all = try #require(try await call(client, .get, "/parse/installations", master: true).json["results"]?.arrayValue)
            #expect(all.count == 1)
            #expect(all.first?["channels"] == ["news"])
        }
    }

    /// A session opened with an installation id records it, and a new login from the same
    /// device replaces that device's session.
    @Test func sessionsAreTiedToTheirInstallation() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let signUp = try await call(
                client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse"}"#, headers: device(Self.deviceA))
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let session = try await call(client, .get, "/parse/sessions/me", headers: ["X-Parse-Session-Token": token])
            #expect(session.json["installationId"]?.stringValue == Self.deviceA)
            var headers = device(Self.deviceA)
            headers["X-Parse-Session-Token"] = token
            #expect(
                try await call(client, .post, "/parse/installations", body: #"{"deviceType":"ios"}"#, headers: headers).status == 201)
        }
    }
}
