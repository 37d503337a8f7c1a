import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

/// Hostile credentials: NUL, Unicode spellings of one password, context-specific words,
/// dot-notation writes into account fields, and the anonymous id as a credential.
@Suite struct CredentialInputTests: LiveServerTest {
    func signUp(_ client: any TestClientProtocol, _ body: String) async throws -> Reply {
        try await call(client, .post, "/parse/users", body: body)
    }

    func logIn(_ client: any TestClientProtocol, _ username: String, _ password: String) async throws -> Reply {
        let body = JSONWriter.string(.object(["username": .string(username), "password": .string(password)]))
        return try await call(client, .post, "/parse/login", body: body)
    }

    /// NUL ends a C string: bcrypt would verify `secret\0anything` as `secret`, and `admin\0x`
    /// would collide with `admin`. Every route refuses it with a clear error.
    @Test func nulIsRefusedInEveryCredential() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let created = try await signUp(client, #"{"username":"admin","password":"correct horse 1","email":"admin@example.com"}"#)
            #expect(created.status == 201)
            let token = try #require(created.json["sessionToken"]?.stringValue)
            let id = try #require(created.json["objectId"]?.stringValue)
            let session = ["X-Parse-Session-Token": token]

            let refusals: [(String, String, Int)] = [
                ("/parse/users", #"{"username":"admin\u0000x","password":"correct horse 2"}"#, 142),
                ("/parse/users", #"{"username":"bob","password":"correct horse 2","email":"bob@example.com\u0000x"}"#, 125),
                ("/parse/users", #"{"username":"bob","password":"correct horse 2\u0000x"}"#, 142),
                ("/parse/classes/_User", #"{"username":"admin\u0000x","password":"correct horse 2"}"#, 142),
                ("/parse/login", #"{"username":"admin","password":"correct horse 1\u0000anything"}"#, 142),
                ("/parse/login", #"{"username":"admin\u0000x","password":"correct horse 1"}"#, 142),
                ("/parse/login", #"{"email":"admin@example.com\u0000","password":"correct horse 1"}"#, 125),
                ("/parse/verifyPassword", #"{"username":"admin","password":"correct horse 1\u0000x"}"#, 142),
            ]
            for (path, body, code) in refusals {
                let reply = try await call(client, .post, path, body: body)
                #expect(reply.status == 400 && reply.json["code"] == .number(Double(code)), "\(path) \(body): \(reply.json)")
            }
            let updates: [(String, Int)] = [
                (#"{"username":"admin\u0000y"}"#, 142), (#"{"password":"new horse 1\u0000x"}"#, 142),
                (#"{"email":"a\u0000@example.com"}"#, 125),
            ]
            for (body, code) in updates {
                for path in ["/parse/users/\(id)", "/parse/classes/_User/\(id)"] {
                    let reply = try await call(client, .put, path, body: body, headers: session)
                    #expect(reply.json["code"] == .number(Double(code)), "\(path) \(body): \(reply.json)")
                }
            }
            // Nothing changed: the old credentials still work, and only one admin exists.
            #expect(try await logIn(client, "admin", "correct horse 1").status == 200)
            let users = try await call(client, .get, "/parse/users", master: true)
            #expect(users.json["results"]?.arrayValue?.count == 1)
        }
    }

    /// The composed (NFC) and decomposed (NFD) spellings of one password are one password.
    @Test func passwordSpellingsVerifyAlike() async throws {
        let composed = "caf\u{E9} cr\u{E8}me br\u{FB}l\u{E9}e"
        let decomposed = "cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e"
        #expect(!composed.utf8.elementsEqual(decomposed.utf8))
        try await withServer { (client: any TestClientProtocol) async throws in
            let body = JSONWriter.string(.object(["username": "ana", "password": .string(decomposed)]))
            #expect(try await signUp(client, body).status == 201)
            #expect(try await logIn(client, "ana", composed).status == 200)
            #expect(try await logIn(client, "ana", decomposed).status == 200)
            #expect(try await logIn(client, "ana", "cafe creme brulee").status == 404)
        }
    }

    /// A hash made (by an older build, or imported) from the password as typed keeps verifying.
    @Test func hashesOfUnnormalizedPasswordsStillVerify() async throws {
        let decomposed = "cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e"
        let stores = LockedBox<(any DataStore)?>(nil)
        try await withServer(wrap: { store in
            stores.withLock { $0 = store }
            return store
        }) { (client: any TestClientProtocol) async throws in
            let created = try await signUp(client, #"{"username":"legacy","password":"first password 1"}"#)
            let id = try #require(created.json["objectId"]?.stringValue)
            let store = try #require(stores.withLock { $0 })
            var write = ObjectWrite()
            let legacy = try await BcryptPasswordHasher(cost: 4).hash(decomposed)
            write.operations = [(FieldPath(field: .internal(.hashedPassword)), .set(.string(legacy)))]
            _ = try await store.write([
                .update(
                    className: .user, objectId: id, at: ParseDate(millisecondsSince1970: 1_800_000_000_000), write: write, access: .master,
                    grant: SchemaGrant(createClass: false, addFields: true))
            ])
            #expect(try await logIn(client, "legacy", decomposed).status == 200)
            #expect(try await logIn(client, "legacy", "first password 1").status == 404)
        }
    }

    /// NIST's context-specific words: the username, the email and its local part, the app's
    /// name and id — also with digits and symbols around them, in any case.
    @Test func contextSpecificWordsAreRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let refused = [
                #"{"username":"lovelace","password":"LoveLace"}"#,
                #"{"username":"lovelace","password":"lovelace2024!"}"#,
                #"{"username":"ana","password":"ada.lovelace@example.com","email":"ada.lovelace@example.com"}"#,
                #"{"username":"ana","password":"Ada.Lovelace1","email":"ada.lovelace@example.com"}"#,
                #"{"username":"ana","password":"TEST-APP"}"#,
                #"{"username":"ana","password":"test-app-123"}"#,
            ]
            for body in refused {
                let reply = try await signUp(client, body)
                #expect(reply.status == 400 && reply.json["code"] == 142, "\(body): \(reply.json)")
            }
            // Longer passwords merely containing them are fine (doNotAllowUsername is off).
            #expect(try await signUp(client, #"{"username":"lovelace","password":"lovelace wrote the first program"}"#).status == 201)
            let created = try await signUp(client, #"{"username":"ana","password":"a fine passphrase","email":"ada@example.com"}"#)
            let token = try #require(created.json["sessionToken"]?.stringValue)
            let id = try #require(created.json["objectId"]?.stringValue)
            // A change of password is held to the same words, the new email included.
            let change = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"password":"newaddress99","email":"newaddress@example.com"}"#,
                headers: ["X-Parse-Session-Token": token])
            #expect(change.json["code"] == 142, "\(change.json)")
        }
    }

    /// `authData` changes only through a provider's validation: dot-notation keys into account
    /// fields are refused on every route that writes users, the master key included.
    @Test func dotNotationCannotWriteAccountFields() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let created = try await signUp(client, #"{"username":"eve","password":"eve's passphrase"}"#)
            let id = try #require(created.json["objectId"]?.stringValue)
            let session = ["X-Parse-Session-Token": try #require(created.json["sessionToken"]?.stringValue)]
            let bodies = [
                #"{"authData.facebook.id":"victim"}"#, #"{"authData.facebook":{"id":"victim"}}"#, #"{"authData.anonymous.id":"x"}"#,
                #"{"username.x":"y"}"#, #"{"email.x":"y"}"#, #"{"password.x":"y"}"#, #"{"emailVerified.x":true}"#,
                #"{"authData.facebook":{"__op":"Delete"}}"#,
            ]
            for body in bodies {
                for path in ["/parse/users/\(id)", "/parse/classes/_User/\(id)"] {
                    let reply = try await call(client, .put, path, body: body, headers: session)
                    #expect(reply.status == 400 && reply.json["code"] == 105, "\(path) \(body): \(reply.json)")
                    let master = try await call(client, .put, path, body: body, master: true)
                    #expect(master.json["code"] == 105, "master \(path) \(body): \(master.json)")
                }
                let viaSignUp = try await call(
                    client, .post, "/parse/users", body: #"{"username":"mallory","password":"pass phrase 9","#.appending(body.dropFirst()))
                #expect(viaSignUp.json["code"] == 105, "\(body): \(viaSignUp.json)")
            }
            let batch = try await call(
                client, .post, "/parse/batch",
                body: #"{"requests":[{"method":"PUT","path":"/parse/users/\#(id)","body":{"authData.facebook.id":"victim"}}]}"#, headers: session)
            #expect(batch.json.arrayValue?.first?["error"]?["code"] == 105, "\(batch.json)")
            // A provider that is not enabled is 252 whatever the shape.
            let unknown = try await call(
                client, .put, "/parse/users/\(id)", body: #"{"authData":{"facebook":{"id":"victim"}}}"#, headers: session)
            #expect(unknown.json["code"] == 252)
            let stored = try await call(client, .get, "/parse/users/\(id)", master: true)
            #expect(stored.json["authData"] == nil, "\(stored.json)")
            #expect(stored.json["username"] == "eve")
            #expect(try await call(client, .post, "/parse/users", body: #"{"authData":{"facebook":{"id":"victim"}}}"#).json["code"] == 252)
        }
    }

    /// The anonymous id logs in with no password: no answer but the one that created the user
    /// carries it (and that one only echoes what the client sent).
    @Test func anonymousIdIsNeverReturned() async throws {
        let anonymousId = UUID().uuidString.lowercased()
        try await withServer { (client: any TestClientProtocol) async throws in
            let authData = #"{"authData":{"anonymous":{"id":"\#(anonymousId)"}}}"#
            let created = try await signUp(client, authData)
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            let token = try #require(created.json["sessionToken"]?.stringValue)
            let session = ["X-Parse-Session-Token": token]
            var answers: [Reply] = []
            answers.append(try await call(client, .get, "/parse/users/me", headers: session))
            answers.append(try await call(client, .get, "/parse/users/\(id)", headers: session))
            answers.append(try await call(client, .get, "/parse/classes/_User/\(id)", headers: session))
            answers.append(try await call(client, .get, "/parse/users", headers: session))
            answers.append(try await call(client, .get, "/parse/users/\(id)", master: true))
            answers.append(try await signUp(client, authData))  // logs in again: 200 with the user
            answers.append(try await call(client, .get, "/parse/sessions/me", headers: session))
            for answer in answers {
                #expect(answer.status == 200)
                let text = JSONWriter.string(answer.json)
                #expect(!text.contains(anonymousId), "\(text)")
            }
            // Still linked (SDKs look for `authData.anonymous`), and still able to log in.
            #expect(answers[0].json["authData"]?["anonymous"] != nil)
            #expect(answers[5].json["objectId"]?.stringValue == id)
            // Querying on the id finds nothing: it is not stored where queries look.
            let query = try await call(
                client, .get, "/parse/users?where=" + encoded(#"{"authData.anonymous.id":"\#(anonymousId)"}"#), master: true)
            #expect(query.json["results"]?.arrayValue?.isEmpty == true, "\(query.json)")
        }
    }
}
