import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopHTTP
import RooftopTesting
import Testing

/// `/batch`: per-item results, mount-prefixed paths, transactions and the request limit.
@Suite struct BatchRoutesTests: LiveServerTest {
    func seed(_ client: any TestClientProtocol) async throws -> String {
        try #require(try await call(client, .post, "/parse/classes/Score", body: #"{"points":4}"#).json["objectId"]?.stringValue)
    }

    @Test func itemsSucceedOrFailAlone() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try await seed(client)
            let body = """
                {"requests":[
                  {"method":"POST","path":"/parse/classes/Score","body":{"points":3}},
                  {"method":"PUT","path":"/parse/classes/Score/\(id)","body":{"points":{"__op":"Increment","amount":1}}},
                  {"method":"DELETE","path":"/parse/classes/Score/Zz99Yy88Xx"},
                  {"method":"GET","path":"/parse/classes/Score","body":{"where":{"points":{"$gte":5}}}},
                  {"method":"GET","path":"/parse/schemas"}
                ]}
                """
            let reply = try await call(client, .post, "/parse/batch", body: body)
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 5)
            #expect(items[0]["success"]?["objectId"]?.stringValue?.count == 10)
            #expect(items[1]["success"]?["points"] == 5)
            #expect(items[2] == ["error": ["code": 101, "error": "Object not found."]])
            #expect(items[3]["success"]?["results"]?.arrayValue?.count == 1)
            // Sub-requests inherit the caller's credentials: no master key, no schemas.
            #expect(items[4]["error"]?["code"] == 119)
            #expect(try await call(client, .get, "/parse/classes/Score?count=1&limit=0").json["count"] == 2)
        }
    }

    @Test func transactionIsAllOrNothing() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let id = try await seed(client)
            let failing = """
                {"transaction":true,"requests":[
                  {"method":"POST","path":"/parse/classes/Score","body":{"points":10}},
                  {"method":"PUT","path":"/parse/classes/Score/\(id)","body":{"points":{"__op":"Increment","amount":1}}},
                  {"method":"PUT","path":"/parse/classes/Score/Zz99Yy88Xx","body":{"points":1}}
                ]}
                """
            let reply = try await call(client, .post, "/parse/batch", body: failing)
            #expect(reply.json == ["code": 101, "error": "Object not found."])
            #expect(try await call(client, .get, "/parse/classes/Score?count=1&limit=0").json["count"] == 1)
            #expect(try await call(client, .get, "/parse/classes/Score/\(id)").json["points"] == 4)

            let good = failing.replacingOccurrences(of: "Zz99Yy88Xx", with: id)
            let done = try await call(client, .post, "/parse/batch", body: good)
            let items = try #require(done.json.arrayValue)
            #expect(items.count == 3)
            #expect(items[1]["success"]?["points"] == 5)
            #expect(try await call(client, .get, "/parse/classes/Score/\(id)").json["points"] == 1)
            // Reads can't take part in a transaction.
            let withRead = #"{"transaction":true,"requests":[{"method":"GET","path":"/parse/classes/Score"}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: withRead).json["code"] == 107)
        }
    }

    @Test func pathsAndLimitsAreChecked() async throws {
        try await withServer(configure: { _, http in http.batchRequestLimit = 3 }) { (client: any TestClientProtocol) async throws in
            let outside = #"{"requests":[{"method":"GET","path":"/other/classes/Score"}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: outside).json["code"] == 107)
            let nested = #"{"requests":[{"method":"POST","path":"/parse/batch","body":{"requests":[]}}]}"#
            #expect(try await call(client, .post, "/parse/batch", body: nested).json["code"] == 107)
            let item = #"{"method":"POST","path":"/parse/classes/Score","body":{"points":1}}"#
            let tooMany = #"{"requests":[\#(Array(repeating: item, count: 4).joined(separator: ","))]}"#
            let refused = try await call(client, .post, "/parse/batch", body: tooMany)
            #expect(refused.status == 400)
            #expect(refused.json["code"] == 107)
            #expect(try await call(client, .get, "/parse/classes/Score?count=1&limit=0").json["count"] == 0)
            let fine = #"{"requests":[\#(Array(repeating: item, count: 3).joined(separator: ","))]}"#
            #expect(try await call(client, .post, "/parse/batch", body: fine).json.arrayValue?.count == 3)
        }
    }
}
