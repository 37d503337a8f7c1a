import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// The users guide's "Security For User Objects": only the user changes or deletes itself.
@Suite struct UserUpdateTests: LiveServerTest {
    func signUp(_ client: any TestClientProtocol, _ name: String) async throws -> (id: String, token: String) {
        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"correct horse"}"#)
        return (try #require(reply.json["objectId"]?.stringValue), try #require(reply.json["sessionToken"]?.stringValue))
    }

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    @Test func onlyTheUserItselfMayChangeIt() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let bob = try await signUp(client, "bob")
            let mine = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"nickname":"A"}"#, headers: session(ana.token))
            #expect(mine.json["updatedAt"] != nil)
            let foreign = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"nickname":"hacked"}"#, headers: session(bob.token))
            #expect(foreign.json == ["code": 206, "error": .string("Cannot modify user \(ana.id).")])
            #expect(try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"nickname":"x"}"#).json["code"] == 206)
            #expect(try await call(client, .delete, "/parse/users/\(ana.id)", headers: session(bob.token)).json["code"] == 206)
            #expect(
                try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"emailVerified":true}"#, headers: session(ana.token)).json["code"]
                    == 119)
            #expect(
                try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"username":"BOB"}"#, headers: session(ana.token)).json["code"] == 202)
            let me = try await call(client, .get, "/parse/users/me", headers: session(ana.token))
            #expect(me.json["nickname"] == "A" && me.json["username"] == "ana")
            // Locking oneself out through the ACL doesn't work: the owner is added back.
            _ = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"ACL":{}}"#, headers: session(ana.token))
            #expect(try await call(client, .get, "/parse/users/\(ana.id)", headers: session(ana.token)).json["username"] == "ana")
            #expect(try await call(client, .get, "/parse/users/\(ana.id)", headers: session(bob.token)).status == 404)
        }
    }

    @Test func passwordChangeEndsOtherSessions() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            let second = try #require(
                try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?
                    .stringValue)
            let changed = try await call(client, .put, "/parse/users/\(ana.id)", body: #"{"password":"battery staple"}"#, headers: session(ana.token))
            let fresh = try #require(changed.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(second)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(ana.token)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(fresh)).json["username"] == "ana")
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#).json["code"] == 101)
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"battery staple"}"#).status == 200)
        }
    }

    @Test func deletingAUserEndsItsSessions() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, "ana")
            #expect(try await call(client, .delete, "/parse/users/\(ana.id)", headers: session(ana.token)).json == [:])
            #expect(try await call(client, .get, "/parse/users/me", headers: session(ana.token)).json["code"] == 209)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == 0)
            // Deleting through /classes/_User with the master key ends sessions too.
            let bob = try await signUp(client, "bob")
            #expect(try await call(client, .delete, "/parse/classes/_User/\(bob.id)", master: true).json == [:])
            #expect(try await call(client, .get, "/parse/users/me", headers: session(bob.token)).json["code"] == 209)
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#).json["code"] == 101)
            // The name is free again.
            #expect(try await call(client, .post, "/parse/users", body: #"{"username":"Ana","password":"correct horse"}"#).status == 201)
        }
    }
}
