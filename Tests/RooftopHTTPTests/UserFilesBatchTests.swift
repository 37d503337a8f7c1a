import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// `deleteUserFiles` when the user is deleted inside a `/batch` with `transaction: true`.
@Suite struct UserFilesBatchTests: LiveServerTest {
    let files = FileRoutesTests()

    /// The files only the user referred to go once the transaction commits; a file another
    /// object refers to stays; when the transaction rolls back, the user and its files stay.
    @Test(arguments: [true, false]) func transactionDeletesTheUsersFilesOnlyOnCommit(commits: Bool) async throws {
        try await withServer(files: { $0.deleteUserFiles = true }) { (client: any TestClientProtocol) async throws in
            let signUp = try await call(client, .post, "/parse/users", body: #"{"username":"ana","password":"correct horse ana"}"#)
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let anaId = try #require(signUp.json["objectId"]?.stringValue)
            var uploaded: [(name: String, path: String)] = []
            for name in ["own.png", "shared.png"] {
                let reply = try await files.send(
                    client, .post, "/parse/files/\(name)", body: pngBytes, headers: ["Content-Type": "image/png"], session: token)
                uploaded.append((try #require(reply.json["name"]?.stringValue), try files.path(try #require(reply.json["url"]?.stringValue))))
            }
            let fields = #"{"picture":{"__type":"File","name":"\#(uploaded[0].name)"},"cover":{"__type":"File","name":"\#(uploaded[1].name)"}}"#
            #expect(try await call(client, .put, "/parse/users/\(anaId)", body: fields, headers: ["X-Parse-Session-Token": token]).status == 200)
            let note = #"{"cover":{"__type":"File","name":"\#(uploaded[1].name)"}}"#
            #expect(try await call(client, .post, "/parse/classes/Note", body: note, master: true).status == 201)

            // To roll back, the last item gives the new field `n` another type than the one before
            // it: both are planned against the same schema, so this fails at the commit itself.
            let last = #"{"method":"POST","path":"/parse/classes/Note","body":{"n":\#(commits ? "2" : #""two""#)}}"#
            let second = #"{"method":"POST","path":"/parse/classes/Note","body":{"n":1}},\#(last)"#
            let batch = #"{"transaction":true,"requests":[{"method":"DELETE","path":"/parse/classes/_User/\#(anaId)"},\#(second)]}"#
            let reply = try await call(client, .post, "/parse/batch", body: batch, master: true)
            #expect((reply.status == 200) == commits, "\(reply.json)")
            #expect(try await call(client, .get, "/parse/users/\(anaId)", master: true).status == (commits ? 404 : 200))
            #expect(try await files.send(client, .get, uploaded[0].path).status == (commits ? 404 : 200))
            #expect(try await files.send(client, .get, uploaded[1].path).status == 200)
        }
    }
}
