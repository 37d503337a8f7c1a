import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// `/schemas` over HTTP: master only, classes, fields, CLPs and indexes.
@Suite struct SchemaRoutesTests: LiveServerTest {
    @Test func masterKeyIsRequired() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let denied = try await call(client, .get, "/parse/schemas")
            #expect(denied.status == 403)
            #expect(denied.json == ["error": "unauthorized: master key is required"])
            #expect(try await call(client, .post, "/parse/schemas/Game", body: "{}").status == 403)
            #expect(try await call(client, .get, "/parse/schemas/Game", master: true).json["code"] == 103)
        }
    }

    @Test func createUpdateAndDeleteAClass() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let body =
                #"{"className":"Game","fields":{"score":{"type":"Number"},"owner":{"type":"Pointer","targetClass":"_User"}},"indexes":{"by_score":{"score":-1}}}"#
            let created = try await call(client, .post, "/parse/schemas", body: body, master: true)
            #expect(created.status == 200)
            #expect(created.json["fields"]?["owner"] == ["type": "Pointer", "targetClass": "_User"])
            #expect(created.json["classLevelPermissions"]?["find"] == ["*": true])
            #expect(created.json["indexes"]?["by_score"] == ["score": -1])
            #expect(try await call(client, .post, "/parse/schemas/Game", body: "{}", master: true).json["code"] == 103)
            #expect(try await call(client, .post, "/parse/schemas/Game", body: #"{"className":"Other"}"#, master: true).json["code"] == 102)

            // The declared type is enforced on object writes.
            #expect(try await call(client, .post, "/parse/classes/Game", body: #"{"score":"high"}"#).json["code"] == 111)
            let id = try #require(
                try await call(client, .post, "/parse/classes/Game", body: #"{"score":5,"note":"x"}"#).json["objectId"]?.stringValue)

            // Delete a field: its data goes; add it back with another type.
            let dropped = try await call(client, .put, "/parse/schemas/Game", body: #"{"fields":{"note":{"__op":"Delete"}}}"#, master: true)
            #expect(dropped.json["fields"]?["note"] == nil)
            #expect(try await call(client, .get, "/parse/classes/Game/\(id)").json["note"] == nil)
            #expect(try await call(client, .put, "/parse/schemas/Game", body: #"{"fields":{"note":{"type":"Boolean"}}}"#, master: true).status == 200)
            #expect(
                try await call(client, .put, "/parse/schemas/Game", body: #"{"fields":{"note":{"type":"Boolean"}}}"#, master: true).json["code"]
                    == 255)
            #expect(
                try await call(client, .put, "/parse/schemas/Game", body: #"{"fields":{"nope":{"__op":"Delete"}}}"#, master: true).json["code"] == 255
            )
            #expect(
                try await call(client, .put, "/parse/schemas/Game", body: #"{"fields":{"objectId":{"__op":"Delete"}}}"#, master: true).json["code"]
                    == 119)
            #expect(try await call(client, .put, "/parse/schemas/Nope", body: "{}", master: true).json["code"] == 103)

            // Indexes: duplicate names and unknown fields are refused; deletion works.
            #expect(
                try await call(client, .put, "/parse/schemas/Game", body: #"{"indexes":{"by_score":{"score":1}}}"#, master: true).json["code"] == 102)
            #expect(try await call(client, .put, "/parse/schemas/Game", body: #"{"indexes":{"i2":{"ghost":1}}}"#, master: true).json["code"] == 102)
            let noIndex = try await call(client, .put, "/parse/schemas/Game", body: #"{"indexes":{"by_score":{"__op":"Delete"}}}"#, master: true)
            #expect(noIndex.json["indexes"]?["by_score"] == nil)

            // A non-empty class can't be dropped; an empty one can.
            #expect(try await call(client, .delete, "/parse/schemas/Game", master: true).json["code"] == 255)
            #expect(try await call(client, .delete, "/parse/classes/Game/\(id)").status == 200)
            #expect(try await call(client, .delete, "/parse/schemas/Game", master: true).json == [:])
            #expect(try await call(client, .get, "/parse/schemas/Game", master: true).json["code"] == 103)
            let all = try await call(client, .get, "/parse/schemas", master: true)
            #expect(all.json["results"]?.arrayValue?.contains { $0["className"] == "Game" } == false)
        }
    }

    @Test func classLevelPermissionsApply() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let clp = #"{"classLevelPermissions":{"find":{},"get":{"*":true},"create":{"*":true},"update":{},"delete":{}}}"#
            #expect(try await call(client, .post, "/parse/schemas/Vault", body: clp, master: true).status == 200)
            let id = try #require(try await call(client, .post, "/parse/classes/Vault", body: #"{"a":1}"#).json["objectId"]?.stringValue)
            let find = try await call(client, .get, "/parse/classes/Vault")
            #expect(find.json == ["code": 119, "error": "Permission denied for action find on class Vault."])
            #expect(try await call(client, .get, "/parse/classes/Vault/\(id)").json["a"] == 1)
            #expect(try await call(client, .put, "/parse/classes/Vault/\(id)", body: #"{"a":2}"#).json["code"] == 119)
            #expect(try await call(client, .get, "/parse/classes/Vault", master: true).json["results"]?.arrayValue?.count == 1)
            // Malformed CLPs are refused and change nothing.
            let badOp = try await call(client, .put, "/parse/schemas/Vault", body: #"{"classLevelPermissions":{"explode":{}}}"#, master: true)
            #expect(badOp.json["code"] == 107)
            let badPointer = try await call(
                client, .put, "/parse/schemas/Vault", body: #"{"classLevelPermissions":{"readUserFields":["a"]}}"#, master: true)
            #expect(badPointer.json["code"] == 107)
            #expect(try await call(client, .get, "/parse/classes/Vault").json["code"] == 119)
        }
    }

    @Test func hostileNamesNeverReachSQL() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/schemas/Bad%22Name", body: "{}", master: true).json["code"] == 103)
            let badField = #"{"fields":{"a\"); DROP TABLE _SCHEMA; --":{"type":"String"}}}"#
            #expect(try await call(client, .post, "/parse/schemas/Ok", body: badField, master: true).json["code"] == 105)
            let badIndex = #"{"indexes":{"x\" ON y":{"a":1}}}"#
            #expect(try await call(client, .post, "/parse/schemas/Ok", body: badIndex, master: true).json["code"] == 102)
            let badType = #"{"fields":{"a":{"type":"Nope"}}}"#
            #expect(try await call(client, .post, "/parse/schemas/Ok", body: badType, master: true).json["code"] == 111)
            let unsupported = #"{"fields":{"a":{"type":"String","unique":true}}}"#
            #expect(try await call(client, .post, "/parse/schemas/Ok", body: unsupported, master: true).json["code"] == 107)
            #expect(try await call(client, .get, "/parse/schemas/Ok", master: true).json["code"] == 103)
        }
    }
}
