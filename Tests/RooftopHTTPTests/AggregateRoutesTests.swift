import HTTPTypes
import HummingbirdTesting
import RooftopCore
import RooftopTesting
import Testing

/// `/aggregate`: distinct and pipelines, master key only.
@Suite struct AggregateRoutesTests: LiveServerTest {
    func seed(_ client: any TestClientProtocol) async throws {
        let rows = [
            #"{"city":"Oslo","score":10,"tags":["a","b"]}"#, #"{"city":"Oslo","score":20,"tags":["b"]}"#,
            #"{"city":"Rome","score":5,"tags":["c"]}"#, #"{"city":"Lima","score":7}"#, #"{"score":1}"#,
        ]
        for row in rows { #expect(try await call(client, .post, "/parse/classes/Match", body: row).status == 201) }
    }

    func aggregate(_ client: any TestClientProtocol, _ query: String, master: Bool = true) async throws -> Reply {
        try await call(client, .get, "/parse/aggregate/Match?\(query)", master: master)
    }

    @Test func distinctValues() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            try await seed(client)
            let cities = try await aggregate(client, "distinct=city")
            #expect(Set(cities.json["results"]?.arrayValue ?? []) == ["Oslo", "Rome", "Lima"])
            let tags = try await aggregate(client, "distinct=tags")
            #expect(Set(tags.json["results"]?.arrayValue ?? []) == ["a", "b", "c"])
            let filtered = try await aggregate(client, "distinct=city&where=\(encoded(#"{"score":{"$gte":7}}"#))")
            #expect(Set(filtered.json["results"]?.arrayValue ?? []) == ["Oslo", "Lima"])
        }
    }

    @Test func pipelineGroupsSortsAndProjects() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            try await seed(client)
            let pipeline = #"""
                [{"$match":{"city":{"$exists":true}}},
                 {"$group":{"_id":"$city","total":{"$sum":"$score"},"n":{"$sum":1},"avg":{"$avg":"$score"},"lo":{"$min":"$score"},"hi":{"$max":"$score"},"c":{"$count":{}}}},
                 {"$sort":{"total":-1}}]
                """#
            let reply = try await aggregate(client, "pipeline=\(encoded(pipeline))")
            let results = try #require(reply.json["results"]?.arrayValue)
            #expect(results.count == 3)
            #expect(results.first == ["objectId": "Oslo", "total": 30, "n": 2, "avg": 15, "lo": 10, "hi": 20, "c": 2])
            #expect(results.map { $0["objectId"] } == ["Oslo", "Lima", "Rome"])

            // A $match after $group runs in memory; then skip, limit and project.
            let later =
                #"[{"$group":{"_id":"$city","total":{"$sum":"$score"}}},{"$match":{"total":{"$lt":25}}},{"$sort":{"total":1}},{"$skip":1},{"$limit":5},{"$project":{"total":0}}]"#
            let rest = try await aggregate(client, "pipeline=\(encoded(later))")
            // Totals: null group 1, Rome 5, Lima 7 (Oslo 30 filtered out); skip drops the null group.
            #expect(rest.json["results"] == [["objectId": "Rome"], ["objectId": "Lima"]])

            // Stages as top-level parameters, and $count.
            let counted = try await aggregate(client, "$match=\(encoded(#"{"score":{"$gt":6}}"#))&$count=n")
            #expect(counted.json["results"] == [["n": 3]])
            let whole = try await aggregate(client, "pipeline=\(encoded(#"[{"$group":{"_id":null,"sum":{"$sum":"$score"}}}]"#))")
            #expect(whole.json["results"] == [["objectId": .null, "sum": 43]])
        }
    }

    @Test func refusesClientsAndBadPipelines() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            try await seed(client)
            let denied = try await aggregate(client, "distinct=city", master: false)
            #expect(denied.status == 403)
            let byObjectId = #"[{"$group":{"objectId":"$city"}}]"#
            #expect(try await aggregate(client, "pipeline=\(encoded(byObjectId))").json["code"] == 102)
            #expect(try await aggregate(client, "pipeline=\(encoded(#"[{"$out":"Other"}]"#))").json["code"] == 102)
            #expect(try await aggregate(client, "pipeline=\(encoded(#"[{"$group":{"_id":"$bad;name"}}]"#))").json["code"] == 105)
            #expect(try await aggregate(client, "pipeline=\(encoded(#"[{"$lookup":{}}]"#))").json["code"] == 102)
            #expect(try await aggregate(client, "bogus=1").json["code"] == 102)
            // An empty or missing class aggregates to nothing.
            #expect(try await call(client, .get, "/parse/aggregate/Nothing?distinct=x", master: true).json["results"] == [])
        }
    }
}
