import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// Sign-up, login, current user and logout over HTTP.
@Suite struct AccountRoutesTests: LiveServerTest {
    func signUp(_ client: any TestClientProtocol, _ body: String) async throws -> Reply {
        try await call(client, .post, "/parse/users", body: body)
    }

    func session(_ token: String) -> [String: String] { ["X-Parse-Session-Token": token] }

    /// The two-user todo tutorial: A signs up and writes todos; B signs up and neither sees nor changes them.
    @Test func twoUsersTodoScenario() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let a = try await signUp(client, #"{"username":"ana","password":"correct horse","email":"ana@example.com","nickname":"A"}"#)
            #expect(a.status == 201)
            let aToken = try #require(a.json["sessionToken"]?.stringValue)
            let aId = try #require(a.json["objectId"]?.stringValue)
            #expect(aToken.hasPrefix("r:") && aToken.count == 34)
            let acl = #"{"\#(aId)":{"read":true,"write":true}}"#
            let todo = try await call(client, .post, "/parse/classes/Todo", body: #"{"title":"milk","ACL":\#(acl)}"#, headers: session(aToken))
            let todoId = try #require(todo.json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Todo", headers: session(aToken)).json["results"]?.arrayValue?.count == 1)
            #expect(try await call(client, .post, "/parse/logout", body: "{}", headers: session(aToken)).json == [:])
            #expect(try await call(client, .get, "/parse/users/me", headers: session(aToken)).json["code"] == 209)

            let b = try await signUp(client, #"{"username":"bob","password":"battery staple"}"#)
            let bToken = try #require(b.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Todo", headers: session(bToken)).json["results"]?.arrayValue?.count == 0)
            #expect(try await call(client, .put, "/parse/classes/Todo/\(todoId)", body: #"{"title":"x"}"#, headers: session(bToken)).status == 404)

            // A logs in again (by email typed into the username field) and still has the todo.
            let again = try await call(client, .post, "/parse/login", body: #"{"username":"ANA@example.com","password":"correct horse"}"#)
            #expect(again.json["objectId"]?.stringValue == aId)
            #expect(again.json["nickname"] == "A")
            let aToken2 = try #require(again.json["sessionToken"]?.stringValue)
            #expect(aToken2 != aToken)
            #expect(try await call(client, .get, "/parse/classes/Todo/\(todoId)", headers: session(aToken2)).json["title"] == "milk")
            let me = try await call(client, .get, "/parse/users/me", headers: session(aToken2))
            #expect(me.json["username"] == "ana" && me.json["email"] == "ana@example.com" && me.json["sessionToken"]?.stringValue == aToken2)
        }
    }

    /// `/users/me` trusts the check authentication just made of the same token, but a batch
    /// item does not: an earlier item may have ended the session.
    @Test func meAfterALogoutInTheSameBatchIsRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let signedUp = try await signUp(client, #"{"username":"ana","password":"correct horse"}"#)
            let token = try #require(signedUp.json["sessionToken"]?.stringValue)
            let body = #"{"requests":[{"method":"POST","path":"/parse/logout"},{"method":"GET","path":"/parse/users/me"}]}"#
            let items = try #require(try await call(client, .post, "/parse/batch", body: body, headers: session(token)).json.arrayValue)
            #expect(items.count == 2)
            #expect(items[0]["success"] == [:])
            #expect(items[1]["error"]?["code"] == 209, "\(items)")
            #expect(try await call(client, .get, "/parse/users/me", headers: session(token)).json["code"] == 209)
            // With the master key the token is still checked, by the route itself.
            var master = session(token)
            master["X-Parse-Master-Key"] = testMasterKey
            #expect(try await call(client, .get, "/parse/users/me", headers: master).json["code"] == 209)
            let fresh = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#)
            let freshToken = try #require(fresh.json["sessionToken"]?.stringValue)
            master["X-Parse-Session-Token"] = freshToken
            #expect(try await call(client, .get, "/parse/users/me", headers: master).json["username"] == "ana")
        }
    }

    @Test func signUpRules() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await signUp(client, #"{"password":"long enough"}"#).json["code"] == 200)
            #expect(try await signUp(client, #"{"username":"x"}"#).json["code"] == 201)
            #expect(try await signUp(client, #"{"username":"x","password":"short"}"#).json["code"] == 142)
            #expect(try await signUp(client, #"{"username":"x","password":"long enough","email":"nope"}"#).json["code"] == 125)
            #expect(try await signUp(client, #"{"username":"x","password":"long enough","emailVerified":true}"#).json["code"] == 119)
            #expect(try await signUp(client, #"{"username":"x","password":"long enough","sessionToken":"r:mine"}"#).json["code"] == 105)
            #expect(try await signUp(client, #"{"username":"x","password":"long enough","objectId":"Chosen1234"}"#).json["code"] == 105)
            #expect(try await signUp(client, #"{"username":"x","password":"long enough","_hashed_password":"$2b$"}"#).json["code"] == 105)
            // A chosen ACL is kept, with the user added so it can't lock itself out.
            let custom = try await signUp(client, #"{"username":"acl","password":"long enough","ACL":{"*":{"read":true}}}"#)
            let customId = try #require(custom.json["objectId"]?.stringValue)
            let stored = try await call(client, .get, "/parse/users/\(customId)", master: true)
            #expect(stored.json["ACL"]?["*"] == ["read": true])
            #expect(stored.json["ACL"]?[customId] == ["read": true, "write": true])
            #expect(try await signUp(client, #"{"username":"Ana","password":"long enough","email":"a@b.co"}"#).status == 201)
            // Taken in any letter case or Unicode form (fullwidth "Ａｎａ").
            #expect(try await signUp(client, #"{"username":"ANA","password":"long enough"}"#).json["code"] == 202)
            #expect(try await signUp(client, #"{"username":"\#u{FF21}\#u{FF4E}\#u{FF41}","password":"long enough"}"#).json["code"] == 202)
            #expect(try await signUp(client, #"{"username":"other","password":"long enough","email":"A@B.CO"}"#).json["code"] == 203)
            // Both taken: the username is reported, as Parse checks it first (whatever index the
            // database happens to check first); a user keeping its own name gets 203.
            let both = try await signUp(client, #"{"username":"ana","password":"long enough","email":"a@b.co"}"#)
            #expect(both.json["code"] == 202 && both.json["error"] == "Account already exists for this username.")
            let acl = try await call(
                client, .put, "/parse/users/\(customId)", body: #"{"username":"acl","email":"a@b.co"}"#,
                headers: ["X-Parse-Session-Token": custom.json["sessionToken"]?.stringValue ?? ""])
            #expect(acl.json["code"] == 203)
        }
    }

    @Test func loginFailuresLookAlike() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            _ = try await signUp(client, #"{"username":"ana","password":"correct horse"}"#)
            let wrong = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong horse"}"#)
            let unknown = try await call(client, .post, "/parse/login", body: #"{"username":"nobody","password":"wrong horse"}"#)
            let injected = try await call(client, .post, "/parse/login", body: #"{"username":{"$regex":".*"},"password":"correct horse"}"#)
            let nonString = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":{"$ne":1}}"#)
            for reply in [wrong, unknown, injected, nonString] {
                #expect(reply.status == 404)
                #expect(reply.json == ["code": 101, "error": "Invalid username/password."])
            }
            // GET /login with the credentials in the query string, as old SDKs do.
            let viaGet = try await call(client, .get, "/parse/login?username=ana&password=correct%20horse")
            #expect(viaGet.json["sessionToken"]?.stringValue?.hasPrefix("r:") == true)
        }
    }

    @Test func secretsNeverLeave() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let a = try await signUp(client, #"{"username":"ana","password":"correct horse","email":"ana@example.com"}"#)
            let id = try #require(a.json["objectId"]?.stringValue)
            let token = try #require(a.json["sessionToken"]?.stringValue)
            let replies = [
                try await call(client, .get, "/parse/users/\(id)", master: true), try await call(client, .get, "/parse/users", master: true),
                try await call(client, .get, "/parse/classes/_Session", master: true),
                try await call(client, .get, "/parse/users/me", headers: session(token)),
                try await call(client, .get, "/parse/schemas/_User", master: true),
                try await call(client, .get, "/parse/schemas/_Session", master: true),
            ]
            for reply in replies {
                let text = JSONWriter.string(reply.json)
                #expect(!text.contains("_hashed_password") && !text.contains("$2b$") && !text.contains("correct horse"), "\(text)")
                #expect(!text.contains("_session_token") && !text.contains("_username_key"), "\(text)")
            }
            // The session row holds a digest, not the token.
            #expect(!JSONWriter.string(replies[2].json).contains(token))
            // Internal fields can't be queried or written by clients, nor passwords set generically.
            #expect(
                try await call(client, .get, "/parse/users?where=\(encoded(#"{"_hashed_password":{"$exists":true}}"#))", master: true).json["code"]
                    == 105)
            // The master key may set a password (through /users or /classes/_User): it is hashed.
            #expect(try await call(client, .put, "/parse/classes/_User/\(id)", body: #"{"password":"plain text"}"#, master: true).status == 200)
            #expect(try await call(client, .put, "/parse/users/\(id)", body: #"{"password":"plain text"}"#, master: true).status == 200)
            #expect(!JSONWriter.string(try await call(client, .get, "/parse/users/\(id)", master: true).json).contains("plain"))
            #expect(try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"plain text"}"#).status == 200)
            // An unknown token is 209 everywhere but /login.
            #expect(try await call(client, .get, "/parse/classes/Todo", headers: session("r:0000")).json["code"] == 209)
            let login = try await call(
                client, .post, "/parse/login", body: #"{"username":"ana","password":"plain text"}"#, headers: session("r:0000"))
            #expect(login.status == 200)
        }
    }

    @Test func concurrentSignUpsHaveOneWinner() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<50 {
                    // Same name in different letter cases: still one account.
                    let name = i % 2 == 0 ? "race" : "RACE"
                    group.addTask {
                        let reply = try await call(client, .post, "/parse/users", body: #"{"username":"\#(name)","password":"long enough"}"#)
                        return reply.status == 201 ? 201 : Int(reply.json["code"]?.numberValue ?? 0)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 202 }.count == 49)
        }
    }

    @Test func loginAsVerifyPasswordAndUpgrade() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try #require(
                try await signUp(client, #"{"username":"ana","password":"correct horse"}"#).json["objectId"]?.stringValue)
            #expect(try await call(client, .post, "/parse/loginAs", body: #"{"userId":"\#(id)"}"#).json["code"] == 119)
            #expect(try await call(client, .post, "/parse/loginAs", body: "{}", master: true).json["code"] == 162)
            #expect(try await call(client, .post, "/parse/loginAs", body: #"{"userId":"zzzzzzzzzz"}"#, master: true).json["code"] == 101)
            let support = try await call(client, .post, "/parse/loginAs", body: #"{"userId":"\#(id)"}"#, master: true)
            let token = try #require(support.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/sessions/me", headers: session(token)).json["createdWith"]?["authProvider"] == "masterkey")

            let sessionsBefore = try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"]
            let verified = try await call(client, .post, "/parse/verifyPassword", body: #"{"username":"ana","password":"correct horse"}"#)
            #expect(verified.json["objectId"]?.stringValue == id)
            #expect(verified.json["sessionToken"] == nil && verified.json["authData"] == nil)
            #expect(try await call(client, .get, "/parse/verifyPassword?username=ana&password=nope").json["code"] == 101)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == sessionsBefore)

            let upgraded = try await call(client, .post, "/parse/upgradeToRevocableSession", body: "{}", headers: session(token))
            let fresh = try #require(upgraded.json["sessionToken"]?.stringValue)
            #expect(try await call(client, .get, "/parse/users/me", headers: session(fresh)).json["username"] == "ana")
            #expect(try await call(client, .post, "/parse/upgradeToRevocableSession", body: "{}").json["code"] == 209)
        }
    }

    @Test func emailVisibleToItsOwnerOnly() async throws {
        var accounts = AccountsConfiguration()
        accounts.enforcePrivateUsers = false
        try await withServer(accounts: accounts) { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, #"{"username":"ana","password":"correct horse","email":"ana@example.com"}"#)
            let anaId = try #require(ana.json["objectId"]?.stringValue)
            let anaToken = try #require(ana.json["sessionToken"]?.stringValue)
            let bobToken = try #require(
                try await signUp(client, #"{"username":"bob","password":"correct horse"}"#).json["sessionToken"]?.stringValue)
            let own = try await call(client, .get, "/parse/users/\(anaId)", headers: session(anaToken))
            #expect(own.json["email"] == "ana@example.com")
            let seenByBob = try await call(client, .get, "/parse/users/\(anaId)", headers: session(bobToken))
            #expect(seenByBob.json["username"] == "ana")
            #expect(seenByBob.json["email"] == nil)
            let where_ = encoded(#"{"email":"ana@example.com"}"#)
            #expect(try await call(client, .get, "/parse/users?where=\(where_)", headers: session(bobToken)).json["code"] == 119)
        }
    }

    /// The todo tutorial's "private by default" buckets: `defaultACL: owner` for one class.
    @Test func ownerDefaultACL() async throws {
        try await withServer(configure: { services, _ in services.defaultACL = ["Todo": .owner] }) { (client: any TestClientProtocol) async throws in
            let ana = try #require(
                try await signUp(client, #"{"username":"ana","password":"correct horse"}"#).json["sessionToken"]?.stringValue)
            let bob = try #require(
                try await signUp(client, #"{"username":"bob","password":"correct horse"}"#).json["sessionToken"]?.stringValue)
            let todo = try #require(
                try await call(client, .post, "/parse/classes/Todo", body: #"{"t":"mine"}"#, headers: session(ana)).json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Todo/\(todo)", headers: session(ana)).json["t"] == "mine")
            #expect(try await call(client, .get, "/parse/classes/Todo/\(todo)", headers: session(bob)).status == 404)
            // Without a session, or in another class, objects stay public as in Parse.
            let open = try #require(try await call(client, .post, "/parse/classes/Todo", body: #"{"t":"open"}"#).json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Todo/\(open)", headers: session(bob)).json["t"] == "open")
            let memo = try #require(
                try await call(client, .post, "/parse/classes/Memo", body: #"{"t":"x"}"#, headers: session(ana)).json["objectId"]?.stringValue)
            #expect(try await call(client, .get, "/parse/classes/Memo/\(memo)", headers: session(bob)).json["t"] == "x")
        }
    }

    /// 100 parallel wrong passwords change nothing and are all plain 101s.
    @Test func parallelWrongPasswords() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try #require(try await signUp(client, #"{"username":"ana","password":"correct horse"}"#).json["objectId"]?.stringValue)
            let codes = try await withThrowingTaskGroup(of: JSON?.self) { group in
                for i in 0..<100 {
                    group.addTask {
                        try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"wrong \#(i)"}"#).json["code"]
                    }
                }
                return try await group.reduce(into: [JSON?]()) { $0.append($1) }
            }
            #expect(codes.count == 100 && codes.allSatisfy { $0 == 101 })
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"ana","password":"correct horse"}"#)
            #expect(login.json["objectId"]?.stringValue == id)
            #expect(try await call(client, .get, "/parse/classes/_Session?count=1&limit=0", master: true).json["count"] == 2)
        }
    }

    /// The users guide: a post pointing at its user, queried by that pointer; querying users.
    @Test func seed000PointerAssociationAndUserQuery() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let ana = try await signUp(client, #"{"username":"ana","password":"correct horse","phone":"415-392-0202"}"#)
            let id = try #require(ana.json["objectId"]?.stringValue)
            let token = try #require(ana.json["sessionToken"]?.stringValue)
            let pointer = #"{"__type":"Pointer","className":"_User","objectId":"\#(id)"}"#
            let post = try await call(client, .post, "/parse/classes/Post", body: #"{"title":"hello","user":\#(pointer)}"#, headers: session(token))
            #expect(post.status == 201)
            let mine = try await call(
                client, .get, "/parse/classes/Post?where=\(encoded(#"{"user":\#(pointer)}"#))&include=user", headers: session(token))
            let first = mine.json["results"]?.arrayValue?.first
            #expect(first?["title"] == "hello")
            #expect(first?["user"]?["username"] == "ana")
            #expect(first?["user"]?["phone"] == "415-392-0202")
            let users = try await call(client, .get, "/parse/users?where=\(encoded(#"{"username":"ana"}"#))", headers: session(token))
            #expect(users.json["results"]?.arrayValue?.count == 1)
            #expect(users.json["results"]?.arrayValue?.first?["_hashed_password"] == nil)
        }
    }
}
