import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// U+0000 in text never reaches the database cut short: what was `"admin\u0000x"` colliding
/// with `admin` is a 107 on SQLite and PostgreSQL alike, and nothing is stored.
@Suite struct NULTextTests: LiveServerTest {
    @Test func nulIsRefusedNotTruncated() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let admin = try await call(client, .post, "/parse/users", body: #"{"username":"admin","password":"correct horse battery"}"#)
            #expect(admin.status == 201)
            // Another account, never "taken" by admin; and no login as admin with admin's password.
            let twin = try await call(client, .post, "/parse/users", body: #"{"username":"admin\u0000x","password":"another long secret"}"#)
            #expect(twin.status == 400 && twin.json["code"] != 202, "\(twin.json)")
            let login = try await call(client, .post, "/parse/login", body: #"{"username":"admin\u0000x","password":"correct horse battery"}"#)
            #expect(login.status != 200 && login.json["sessionToken"] == nil, "\(login.json)")
            let byEmail = try await call(client, .post, "/parse/login", body: #"{"email":"a\u0000@x.io","password":"correct horse battery"}"#)
            #expect(byEmail.status != 200, "\(byEmail.json)")

            #expect(try await call(client, .post, "/parse/classes/Note", body: #"{"text":"abc"}"#).status == 201)
            for body in [#"{"text":"abc\u0000def"}"#, #"{"meta":{"k\u0000":1}}"#, #"{"tags":["a","\u0000"]}"#] {
                let refused = try await call(client, .post, "/parse/classes/Note", body: body)
                #expect(refused.status == 400 && refused.json["code"] == 107, "\(body): \(refused.json)")
            }
            for query in [
                #"{"text":"abc\u0000def"}"#, #"{"text":{"$in":["abc\u0000"]}}"#, #"{"text":{"$ne":"abc\u0000"}}"#,
                #"{"text":{"$regex":"abc\u0000"}}"#, #"{"$or":[{"text":"abc\u0000"}]}"#,
            ] {
                let found = try await call(client, .get, "/parse/classes/Note?where=\(encoded(query))")
                #expect(found.status == 400 && found.json["code"] == 107, "\(query): \(found.json)")
            }
            let id = try #require(try await call(client, .get, "/parse/classes/Note").json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let update = try await call(client, .put, "/parse/classes/Note/\(id)", body: #"{"text":"abc\u0000"}"#)
            #expect(update.status == 400 && update.json["code"] == 107)
            // The same through a batch, and nothing of the group is written.
            let batch = #"""
                {"transaction":true,"requests":[{"method":"POST","path":"/parse/classes/Note","body":{"text":"fine"}},
                {"method":"PUT","path":"/parse/classes/Note/\#(id)","body":{"text":"x\u0000"}}]}
                """#
            #expect(try await call(client, .post, "/parse/batch", body: batch).json["code"] == 107)
            let notes = try await call(client, .get, "/parse/classes/Note", master: true).json["results"]?.arrayValue ?? []
            #expect(notes.map { $0["text"] } == ["abc"])
        }
    }
}
