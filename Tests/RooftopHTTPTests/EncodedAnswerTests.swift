import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// Reads answered straight from the stored text (`Objects.findBody`/`getBody`) say exactly what
/// the long way (decode, render, encode) says; `excludeKeys` of a field nobody has forces the
/// long way for comparison.
@Suite struct EncodedAnswerTests: LiveServerTest {
    @Test func splicedAnswersEqualRenderedOnes() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let bodies = [
                #"{"title":"tab\t\"quote\" é 🙂 \\ back","n":-1.5,"flag":false,"nothing":null,"nested":{"a":[1,{"b":"c"}]},"#
                    + #""when":{"__type":"Date","iso":"2024-05-01T12:34:56.789Z"},"geo":{"__type":"GeoPoint","latitude":1,"longitude":2},"#
                    + #""owner":{"__type":"Pointer","className":"_User","objectId":"u123456789"},"ACL":{"*":{"read":true},"u123456789":{"write":true}}}"#,
                #"{"title":"_starts with an underscore","count":3}"#,
                "{}",
            ]
            var ids: [String] = []
            for body in bodies {
                let created = try await call(client, .post, "/parse/classes/Item", body: body, master: true)
                #expect(created.status == 201)
                ids.append(try #require(created.json["objectId"]?.stringValue))
            }
            let spliced = try await call(client, .get, "/parse/classes/Item?count=1&order=createdAt", master: true)
            let rendered = try await call(client, .get, "/parse/classes/Item?count=1&order=createdAt&excludeKeys=zzz", master: true)
            #expect(spliced.status == 200)
            #expect(spliced.json == rendered.json)
            #expect(spliced.json["count"] == 3)
            let first = try #require(spliced.json["results"]?.arrayValue?.first)
            #expect(first["title"] == "tab\t\"quote\" é 🙂 \\ back")
            #expect(first["nested"] == ["a": [1, ["b": "c"]]])
            #expect(first["ACL"] == ["*": ["read": true], "u123456789": ["write": true]])
            // An empty, public document: only the columns.
            let last = try #require(spliced.json["results"]?.arrayValue?.last)
            #expect(last["objectId"] == .string(ids[2]))
            #expect(Set(last.objectValue?.keys.map { $0 } ?? []) == ["objectId", "createdAt", "updatedAt"])
            for id in ids {
                let one = try await call(client, .get, "/parse/classes/Item/\(id)", master: true)
                let long = try await call(client, .get, "/parse/classes/Item/\(id)?excludeKeys=zzz", master: true)
                #expect(one.json == long.json)
                #expect(one.json["objectId"] == .string(id))
            }
        }
    }

    /// What the stored text cannot say goes the long way: relation placeholders, internal
    /// fields of `_User`, `keys`.
    @Test func answersThatNeedRewritingGoTheLongWay() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let user = try await call(client, .post, "/parse/users", body: #"{"username":"ann","password":"correct horse"}"#)
            let userId = try #require(user.json["objectId"]?.stringValue)
            let team = try await call(
                client, .post, "/parse/classes/Team",
                body: #"{"name":"a","members":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\#(userId)"}]}}"#,
                master: true)
            let teamId = try #require(team.json["objectId"]?.stringValue)
            let listed = try await call(client, .get, "/parse/classes/Team", master: true)
            #expect(listed.json["results"]?.arrayValue?.first?["members"] == ["__type": "Relation", "className": "_User"])
            #expect(try await call(client, .get, "/parse/classes/Team/\(teamId)", master: true).json["members"]?["__type"] == "Relation")
            let users = try await call(client, .get, "/parse/users", master: true)
            let listedUser = try #require(users.json["results"]?.arrayValue?.first)
            #expect(listedUser["username"] == "ann")
            #expect(listedUser.objectValue?.keys.contains { $0.hasPrefix("_") || $0 == "password" } == false)
            let keys = try await call(client, .get, "/parse/classes/Team?keys=name", master: true)
            #expect(keys.json["results"]?.arrayValue?.first?["members"] == nil)
            #expect(keys.json["results"]?.arrayValue?.first?["name"] == "a")
        }
    }
}
