import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// The users guide's "Anonymous Users" and the device-user app's users: `authData.anonymous`.
@Suite struct AnonymousUserTests: LiveServerTest {
    func anonymous(_ id: String) -> String { #"{"authData":{"anonymous":{"id":"\#(id)"}}}"# }
    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    @Test func createLogInAndConvert() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let uuid = UUID().uuidString.lowercased()
            let first = try await call(client, .post, "/parse/users", body: anonymous(uuid))
            #expect(first.status == 201)
            let id = try #require(first.json["objectId"]?.stringValue)
            let token = try #require(first.json["sessionToken"]?.stringValue)
            #expect(first.json["username"]?.stringValue?.count == 25)
            // The same device id logs the same user in again.
            let again = try await call(client, .post, "/parse/users", body: anonymous(uuid))
            #expect(again.status == 200)
            #expect(again.json["objectId"]?.stringValue == id)
            // Still linked, but the id (a credential) is never echoed back (security.md).
            #expect(again.json["authData"]?["anonymous"] == [:])

            // Data saved while anonymous stays with the user after conversion.
            let acl = #"{"\#(id)":{"read":true,"write":true}}"#
            let note = try #require(
                try await call(client, .post, "/parse/classes/Note", body: #"{"t":"draft","ACL":\#(acl)}"#, headers: session(token)).json["objectId"]?
                    .stringValue)
            let converted = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"username":"ana","password":"correct horse","authData":{"anonymous":null}}"#,
                headers: session(token))
            let fresh = try #require(converted.json["sessionToken"]?.stringValue)
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#)
            #expect(login.json["objectId"]?.stringValue == id)
            #expect(login.json["authData"]?["anonymous"] == nil)
            #expect(try await call(client, .get, "/parse/classes/Note/\(note)", headers: session(fresh)).json["t"] == "draft")
            // The device id no longer reaches that account: it makes a new anonymous user.
            let other = try await call(client, .post, "/parse/users", body: anonymous(uuid))
            #expect(other.status == 201)
            #expect(other.json["objectId"]?.stringValue != id)
        }
    }

    @Test func onlyUUIDStringsAndEnabledProviders() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let bad = [
                #"{"authData":{"anonymous":{"id":{"$ne":null}}}}"#, #"{"authData":{"anonymous":{"id":""}}}"#,
                #"{"authData":{"anonymous":{"id":"not-a-uuid"}}}"#, #"{"authData":{"anonymous":{}}}"#,
            ]
            for body in bad {
                let reply = try await call(client, .post, "/parse/users", body: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json["code"] == 107, "\(body)")
            }
            #expect(try await call(client, .post, "/parse/users", body: #"{"authData":null}"#).json["code"] == 252)
            #expect(try await call(client, .post, "/parse/users", body: #"{"authData":{"facebook":{"id":"1"}}}"#).json["code"] == 252)
            #expect(try await call(client, .post, "/parse/users", body: #"{"authData":{}}"#).json["code"] == 200)
            #expect(try await call(client, .get, "/parse/users?count=1&limit=0", master: true).json["count"] == 0)
        }
    }

    @Test func disabledAnonymousUsers() async throws {
        var accounts = AccountsConfiguration()
        accounts.enableAnonymousUsers = false
        try await withServer(accounts: accounts) { (client: any TestClientProtocol) async throws in
            let reply = try await call(client, .post, "/parse/users", body: anonymous(UUID().uuidString))
            #expect(reply.json == ["code": 252, "error": "This authentication method is unsupported."])
        }
    }

    @Test func concurrentFirstLoginsMakeOneUser() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let body = anonymous(UUID().uuidString.lowercased())
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<10 { group.addTask { try await call(client, .post, "/parse/users", body: body).json["objectId"]?.stringValue } }
                return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(ids.first ?? nil != nil)
        }
    }

    /// docs/recipes/device-users.md: only the app (holding the client key) creates device users.
    @Test func deviceUserRecipe() async throws {
        try await withServer(configure: { services, http in
            http.clientKey = "the-app-secret"
            services.defaultACL = ["*": .owner]
        }) { (client: any TestClientProtocol) async throws in
            let uuid = UUID().uuidString.lowercased()
            #expect(try await call(client, .post, "/parse/users", body: anonymous(uuid)).status == 403)
            let key = ["X-Parse-Client-Key": "the-app-secret"]
            let created = try await call(client, .post, "/parse/users", body: anonymous(uuid), headers: key)
            #expect(created.status == 201)
            let token = try #require(created.json["sessionToken"]?.stringValue)
            let event = try await call(
                client, .post, "/parse/classes/Event", body: #"{"name":"party"}"#, headers: key.merging(session(token)) { a, _ in a })
            let eventId = try #require(event.json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Event/\(eventId)", headers: key).status == 404)
            let again = try await call(client, .post, "/parse/users", body: anonymous(uuid), headers: key)
            #expect(again.status == 200 && again.json["objectId"] == created.json["objectId"])
        }
    }

    /// With `anonymousUserTTL`, never-converted anonymous users go after the inactivity period;
    /// converted ones stay.
    @Test func inactiveAnonymousUsersAreCleanedUp() async throws {
        var accounts = AccountsConfiguration()
        accounts.anonymousUserTTL = 3
        let clock = TestClock()
        try await withServer(accounts: accounts, clock: clock, maintenanceInterval: .seconds(60)) { (client: any TestClientProtocol) async throws in
            let idle = try #require(try await call(client, .post, "/parse/users", body: anonymous(UUID().uuidString)).json["objectId"]?.stringValue)
            let kept = try await call(client, .post, "/parse/users", body: anonymous(UUID().uuidString))
            let keptId = try #require(kept.json["objectId"]?.stringValue)
            let token = try #require(kept.json["sessionToken"]?.stringValue)
            _ = try await call(
                client, .put, "/parse/users/\(keptId)", body: #"{"username":"ana","password":"correct horse","authData":{"anonymous":null}}"#,
                headers: session(token))
            try await clock.untilSleeping(1)
            clock.advance(by: .seconds(60))
            try await clock.untilSleeping(1)
            #expect(try await call(client, .get, "/parse/users/\(idle)", master: true).status == 404)
            #expect(try await call(client, .get, "/parse/users/\(keptId)", master: true).json["username"] == "ana")
        }
    }

    /// An identity already linked to another user can't be linked again: 208.
    @Test func identityLinkedElsewhereIs208() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let uuid = UUID().uuidString.lowercased()
            _ = try await call(client, .post, "/parse/users", body: anonymous(uuid))
            let bob = try await call(client, .post, "/parse/users", body: #"{"username":"bob","password":"correct horse"}"#)
            let bobId = try #require(bob.json["objectId"]?.stringValue)
            let token = try #require(bob.json["sessionToken"]?.stringValue)
            let link = try await call(client, .put, "/parse/users/\(bobId)", body: anonymous(uuid), headers: session(token))
            #expect(link.json == ["code": 208, "error": "this auth is already used"])
            #expect(try await call(client, .put, "/parse/users/\(bobId)", body: #"{"authData":null}"#, headers: session(token)).json["code"] == 252)
        }
    }
}
