import HTTPTypes
package import HummingbirdTesting
import RooftopCore
package import RooftopServices
package import RooftopStorage
import Testing

/// Tests of the console's operations pages: an admin signed in over a store, and data to export.
package protocol ConsoleOpsTest: LiveServerTest {}

extension ConsoleOpsTest {
    /// Signs `name` in as `role` over `store`: the session cookie and its CSRF token.
    package func signIn(_ client: any TestClientProtocol, _ store: any DataStore, _ name: String = "ops", role: ConsoleRole = .owner) async throws
        -> (
            [String: String], String
        )
    {
        try await consoleAdmins(store).create(name: name, password: "console passphrase 1", role: role, totp: false)
        let session = try #require(try await consoleSignIn(client, name, "console passphrase 1").session)
        return (["rooftop_console": session], try await consoleCSRF(client, session: session))
    }

    /// Data worth exporting, made through the API: a user (with a password hash), notes with an
    /// ACL and a relation.
    package func seed(_ client: any TestClientProtocol) async throws {
        let signup = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"ana password 1","email":"ana@example.com"}"#)
        let anaId = try #require(signup.json["objectId"]?.stringValue)
        for n in 0..<3 {
            let body = #"{"text":"note \#(n) <b>&","n":\#(n),"ACL":{"\#(anaId)":{"read":true,"write":true}}}"#
            #expect(try await call(client, .post, "/parse/classes/Note", body: body, master: true).status == 201)
        }
        let tag = try await call(client, .post, "/parse/classes/Tag", body: #"{"name":"work"}"#, master: true)
        let tagId = try #require(tag.json["objectId"]?.stringValue)
        let relation = #"{"tags":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"Tag","objectId":"\#(tagId)"}]}}"#
        #expect(try await call(client, .put, "/parse/users/\(anaId)", body: relation, master: true).status == 200)
    }
}
