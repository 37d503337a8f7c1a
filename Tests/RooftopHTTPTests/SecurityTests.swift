import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopServices
import RooftopTesting
import Testing

/// One test per class of Parse Server advisory in this issue's scope (security-bar.md §3).
@Suite struct SecurityTests: LiveServerTest {
    /// A class `Vault` whose `secret` is protected from everyone but the master key.
    func seedVault(_ client: any TestClientProtocol) async throws -> String {
        let schema =
            #"{"fields":{"secret":{"type":"String"},"label":{"type":"String"}},"classLevelPermissions":{"protectedFields":{"*":["secret"]}}}"#
        #expect(try await call(client, .post, "/parse/schemas/Vault", body: schema, master: true).status == 200)
        return try #require(
            try await call(client, .post, "/parse/classes/Vault", body: #"{"secret":"hunter2","label":"v"}"#).json["objectId"]?.stringValue)
    }

    /// §3 #10, #25: protected fields can't be tested anywhere, nor returned.
    @Test func protectedFieldsAreNoOracle() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try await seedVault(client)
            let attempts = [
                #"{"secret":"hunter2"}"#, #"{"$or":[{"label":"x"},{"secret":{"$regex":"^h"}}]}"#, #"{"$and":[{"secret.length":1}]}"#,
                #"{"$nor":[{"secret":{"$exists":false}}]}"#,
            ]
            for attempt in attempts {
                #expect(try await call(client, .get, "/parse/classes/Vault?where=\(encoded(attempt))").json["code"] == 119, "\(attempt)")
            }
            #expect(try await call(client, .get, "/parse/classes/Vault?order=secret").json["code"] == 119)
            #expect(try await call(client, .get, "/parse/classes/Vault?order=-secret.x").json["code"] == 119)
            // Through another class's subquery or $select key.
            _ = try await call(client, .post, "/parse/classes/Probe", body: #"{"v":"hunter2"}"#)
            let inQuery = #"{"vault":{"$inQuery":{"className":"Vault","where":{"secret":"hunter2"}}}}"#
            #expect(try await call(client, .get, "/parse/classes/Probe?where=\(encoded(inQuery))").json["code"] == 119)
            let select = #"{"v":{"$select":{"query":{"className":"Vault","where":{}},"key":"secret"}}}"#
            #expect(try await call(client, .get, "/parse/classes/Probe?where=\(encoded(select))").json["code"] == 119)
            // Never returned, by get, find or include; the master key sees it.
            #expect(try await call(client, .get, "/parse/classes/Vault/\(id)").json["secret"] == nil)
            #expect(try await call(client, .get, "/parse/classes/Vault").json["results"]?.arrayValue?.first?["secret"] == nil)
            let pointer = #"{"vault":{"__type":"Pointer","className":"Vault","objectId":"\#(id)"}}"#
            _ = try await call(client, .post, "/parse/classes/Probe", body: pointer)
            let included = try await call(client, .get, "/parse/classes/Probe?include=vault&where=\(encoded(#"{"vault":{"$exists":true}}"#))")
            #expect(included.json["results"]?.arrayValue?.first?["vault"]?["label"] == "v")
            #expect(included.json["results"]?.arrayValue?.first?["vault"]?["secret"] == nil)
            #expect(try await call(client, .get, "/parse/classes/Vault/\(id)", master: true).json["secret"] == "hunter2")
        }
    }

    /// §3 #14, #25, #26: includes, `$relatedTo` and relation redirects never reach rows the
    /// caller can't read.
    @Test func indirectReadsKeepTheACL() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let item = try #require(try await call(client, .post, "/parse/classes/Item", body: #"{"n":1}"#).json["objectId"]?.stringValue)
            let relation = #"{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"Item","objectId":"\#(item)"}]}"#
            let hidden = try #require(
                try await call(client, .post, "/parse/classes/Post", body: #"{"likes":\#(relation),"ACL":{}}"#, master: true).json["objectId"]?
                    .stringValue)
            let shown = try #require(
                try await call(client, .post, "/parse/classes/Post", body: #"{"likes":\#(relation)}"#, master: true).json["objectId"]?.stringValue)
            func related(_ owner: String) -> String {
                encoded(#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"\#(owner)"},"key":"likes"}}"#)
            }
            #expect(try await call(client, .get, "/parse/classes/Item?where=\(related(shown))").json["results"]?.arrayValue?.count == 1)
            #expect(try await call(client, .get, "/parse/classes/Item?where=\(related(hidden))").json["results"]?.arrayValue?.count == 0)
            #expect(try await call(client, .get, "/parse/classes/Item?redirectClassNameForKey=likes").json["code"] == 102)

            // A pointer to an internal class is never expanded for a client.
            let session = try #require(
                try await call(client, .post, "/parse/classes/_Session", body: #"{"sessionToken":"r:secret"}"#, master: true).json["objectId"]?
                    .stringValue)
            let ref = #"{"s":{"__type":"Pointer","className":"_Session","objectId":"\#(session)"}}"#
            let holder = try #require(try await call(client, .post, "/parse/classes/Holder", body: ref).json["objectId"]?.stringValue)
            let got = try await call(client, .get, "/parse/classes/Holder/\(holder)?include=s")
            #expect(got.json["s"]?["sessionToken"] == nil)
            #expect(got.json["s"]?["__type"] == "Pointer")
            let inSessions = #"{"s":{"$inQuery":{"className":"_Session","where":{}}}}"#
            #expect(try await call(client, .get, "/parse/classes/Holder?where=\(encoded(inSessions))").json["code"] == 119)
        }
    }

    /// §3 #15, #24, #27: identifiers are allow-listed; internal classes and fields are closed.
    @Test func identifiersAndInternalNamesAreRefused() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            #expect(try await call(client, .post, "/parse/classes/_Join:users:_Role", body: #"{"owningId":"x"}"#).json["code"] == 103)
            #expect(try await call(client, .get, "/parse/classes/_SCHEMA").json["code"] == 103)
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"_rperm":["*"]}"#).json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"_rperm":{"$in":["*"]}}"#))").json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"ACL":{"$exists":true}}"#))").json["code"] == 102)
            let id = try #require(try await call(client, .post, "/parse/classes/T", body: #"{"stats":{"wins":1}}"#).json["objectId"]?.stringValue)
            let nested = #"{"stats.wins')); DROP TABLE T; --":{"__op":"Increment","amount":1}}"#
            #expect(try await call(client, .put, "/parse/classes/T/\(id)", body: nested).json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/T?keys=stats,x%27y").json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/T?include=a.b%22c").json["code"] == 105)
            #expect(try await call(client, .get, "/parse/aggregate/T?distinct=\(encoded("a')) --"))", master: true).json["code"] == 105)
            #expect(try await call(client, .get, "/parse/classes/T/\(id)").json["stats"] == ["wins": 1])
        }
    }

    /// §3 #4, #12, #30: odd parameters and malformed regexes get Parse errors, never a crash or
    /// a database message.
    @Test func malformedQueriesGetCleanErrors() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            _ = try await call(client, .post, "/parse/classes/T", body: #"{"name":"a"}"#)
            #expect(try await call(client, .get, "/parse/classes/T?explain=%7B%7D").json["code"] == 102)
            let bad = try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"name":{"$regex":"(["}}"#))")
            #expect(bad.json["code"] == 102)
            let message = bad.json["error"]?.stringValue ?? ""
            #expect(!message.lowercased().contains("sqlite") && !message.contains("SELECT"))
            let deepOr = String(repeating: #"{"$or":["#, count: 40) + #"{"a":1}"# + String(repeating: "]}", count: 40)
            #expect(try await call(client, .get, "/parse/classes/T?where=\(encoded(deepOr))").json["code"] == 102)
            let hugeIn = "[" + (0..<5000).map(String.init).joined(separator: ",") + "]"
            #expect(try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"a":{"$in":\#(hugeIn)}}"#))").json["code"] == 102)
            #expect(try await call(client, .get, "/parse/classes/T?where=\(encoded(#"{"name":{"$gt":{"$regex":"a"}}}"#))").json["results"] == [])
            #expect(try await call(client, .get, "/parse/health").json == ["status": "ok"])
        }
    }

    /// §3 #13, #16: the master key's IP check ignores proxy headers; chosen objectIds can't
    /// impersonate ACL entries.
    @Test func masterKeyIPsAndCustomIds() async throws {
        try await withServer(configure: { services, http in
            http.masterKeyIps = ["10.0.0.1"]
            services.allowCustomObjectId = true
        }) { (client: any TestClientProtocol) async throws in
            let spoofed = try await call(
                client, .get, "/parse/schemas", master: true, headers: ["X-Forwarded-For": "10.0.0.1", "X-Real-IP": "10.0.0.1"])
            #expect(spoofed.status == 403)
            let roleLike = try await call(client, .post, "/parse/classes/T", body: #"{"objectId":"role:Admin"}"#)
            #expect(roleLike.status == 400)
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"objectId":"*"}"#).status == 400)
            #expect(try await call(client, .post, "/parse/classes/T", body: #"{"objectId":"Custom1234"}"#).status == 201)
        }
    }
}
