import RooftopCore
import RooftopServices
package import RooftopStorage
import Testing

/// Every query operator and option docs/compatibility.md claims, through the `Objects` use case
/// (parse, compile, run, render) on a store: each check names the exact objects it must match,
/// so both adapters answer the same thing to the same `where`.
package enum QueryConformance {
    /// The fixture (items, their owners, labels and a relation), then every check.
    package static func runAll(_ store: any DataStore) async throws {
        let fixture = try await Fixture.make(store)
        try await comparisons(fixture)
        try await lists(fixture)
        try await arrays(fixture)
        try await regularExpressions(fixture)
        try await subqueries(fixture)
        try await logic(fixture)
        try await options(fixture)
        try await projections(fixture)
    }

    /// Items a1…a4, owners o1/o2, labels l1…l3; ids by name, since the store picks them.
    struct Fixture {
        let objects: Objects
        var ids: [String: String] = [:]

        static let item = (try? ClassName("Item")) ?? .role
        static let owner = (try? ClassName("Owner")) ?? .role
        static let label = (try? ClassName("Label")) ?? .role

        static func make(_ store: any DataStore) async throws -> Fixture {
            let now = ParseDate(millisecondsSince1970: 1_700_000_000_000)
            var fixture = Fixture(objects: Objects(store: store, config: ServicesConfiguration(), clock: FixedClock(now)))
            try await fixture.create("o1", owner, ["name": "ann", "rank": 1])
            try await fixture.create("o2", owner, ["name": "bob", "rank": 2])
            let o1 = fixture.pointer("Owner", "o1")
            let o2 = fixture.pointer("Owner", "o2")
            try await fixture.create("a1", item, ["name": "apple", "n": 1, "tags": ["a", "b"], "flag": true, "owner": o1, "meta": ["k": "x"]])
            try await fixture.create("a2", item, ["name": "banana", "n": 2, "tags": ["b"], "owner": o2, "meta": ["k": "y"]])
            try await fixture.create("a3", item, ["name": "cherry", "n": 3, "tags": ["c", "a"], "owner": o1])
            try await fixture.create("a4", item, ["name": "Apricot", "n": 4, "tags": ["z"]])
            try await fixture.create("l1", label, ["word": "apple"])
            try await fixture.create("l2", label, ["word": "cherry"])
            // No `word`: `$dontSelect` must not let this missing value exclude everything.
            try await fixture.create("l3", label, ["other": 1])
            let relation: JSON = ["__op": "AddRelation", "objects": [fixture.pointer("Item", "a1"), fixture.pointer("Item", "a3")]]
            _ = try await fixture.objects.update(owner, objectId: try fixture.id("o1"), body: ["favorites": relation], principal: .master)
            return fixture
        }

        mutating func create(_ name: String, _ className: ClassName, _ body: [String: JSON]) async throws {
            ids[name] = try await objects.create(className, body: body, principal: .master).objectId
        }

        func id(_ name: String) throws -> String { try #require(ids[name]) }

        func pointer(_ className: String, _ name: String) -> JSON {
            ["__type": "Pointer", "className": .string(className), "objectId": .string(ids[name] ?? "")]
        }

        /// The names of the items `params` finds, in the order returned.
        func find(_ params: [String: JSON], in className: ClassName = item) async throws -> [String] {
            let byId = Dictionary(uniqueKeysWithValues: ids.map { ($0.value, $0.key) })
            let found = try await objects.find(className, params: params, principal: .master).results
            return found.map { byId[$0["objectId"]?.stringValue ?? ""] ?? "?" }
        }

        /// The names `where` matches, sorted (for checks that are not about order).
        func matching(_ constraint: JSON) async throws -> [String] {
            try await find(["where": constraint]).sorted()
        }
    }

    static func comparisons(_ f: Fixture) async throws {
        #expect(try await f.matching(["n": ["$lt": 2]]) == ["a1"])
        #expect(try await f.matching(["n": ["$lte": 2]]) == ["a1", "a2"])
        #expect(try await f.matching(["n": ["$gt": 3]]) == ["a4"])
        #expect(try await f.matching(["n": ["$gte": 3]]) == ["a3", "a4"])
        #expect(try await f.matching(["name": ["$ne": "apple"]]) == ["a2", "a3", "a4"])
        #expect(try await f.matching(["name": ["$eq": "banana"]]) == ["a2"])
        #expect(try await f.matching(["name": "banana"]) == ["a2"])
        #expect(try await f.matching(["meta.k": "y"]) == ["a2"])
        #expect(try await f.matching(["flag": ["$exists": true]]) == ["a1"])
        #expect(try await f.matching(["flag": ["$exists": false]]) == ["a2", "a3", "a4"])
    }

    static func lists(_ f: Fixture) async throws {
        #expect(try await f.matching(["n": ["$in": [1, 3]]]) == ["a1", "a3"])
        #expect(try await f.matching(["n": ["$nin": [1, 3]]]) == ["a2", "a4"])
        #expect(try await f.matching(["name": ["$in": ["cherry", "nothing"]]]) == ["a3"])
    }

    static func arrays(_ f: Fixture) async throws {
        #expect(try await f.matching(["tags": "a"]) == ["a1", "a3"])
        #expect(try await f.matching(["tags": ["$all": ["a", "b"]]]) == ["a1"])
        #expect(try await f.matching(["tags": ["$containedBy": ["a", "b"]]]) == ["a1", "a2"])
        #expect(try await f.matching(["tags": ["$in": ["c", "z"]]]) == ["a3", "a4"])
        #expect(try await f.matching(["tags": ["$nin": ["a"]]]) == ["a2", "a4"])
    }

    static func regularExpressions(_ f: Fixture) async throws {
        #expect(try await f.matching(["name": ["$regex": "^a"]]) == ["a1"])
        #expect(try await f.matching(["name": ["$regex": "^a", "$options": "i"]]) == ["a1", "a4"])
        #expect(try await f.matching(["name": ["$regex": "rr"]]) == ["a3"])
    }

    static func subqueries(_ f: Fixture) async throws {
        let senior: JSON = ["className": "Owner", "where": ["rank": ["$gt": 1]]]
        #expect(try await f.matching(["owner": ["$inQuery": senior]]) == ["a2"])
        // Items without an owner are not in the subquery's answer either.
        #expect(try await f.matching(["owner": ["$notInQuery": senior]]) == ["a1", "a3", "a4"])
        let words: JSON = ["query": ["className": "Label", "where": [:]], "key": "word"]
        #expect(try await f.matching(["name": ["$select": words]]) == ["a1", "a3"])
        #expect(try await f.matching(["name": ["$dontSelect": words]]) == ["a2", "a4"])
        let ranks: JSON = ["query": ["className": "Owner", "where": ["name": "bob"]], "key": "rank"]
        #expect(try await f.matching(["n": ["$select": ranks]]) == ["a2"])
        #expect(try await f.matching(["n": ["$dontSelect": ranks]]) == ["a1", "a3", "a4"])
        let related: JSON = ["$relatedTo": ["object": f.pointer("Owner", "o1"), "key": "favorites"]]
        #expect(try await f.matching(related) == ["a1", "a3"])
    }

    static func logic(_ f: Fixture) async throws {
        #expect(try await f.matching(["$or": [["n": 1], ["n": 4]]]) == ["a1", "a4"])
        #expect(try await f.matching(["$and": [["n": ["$gt": 1]], ["n": ["$lt": 4]]]]) == ["a2", "a3"])
        #expect(try await f.matching(["$nor": [["n": 1], ["n": 2]]]) == ["a3", "a4"])
        #expect(try await f.matching(["$or": [["name": "apple"], ["tags": "z"]], "n": ["$gt": 1]]) == ["a4"])
    }

    static func options(_ f: Fixture) async throws {
        #expect(try await f.find(["order": "-n"]) == ["a4", "a3", "a2", "a1"])
        // Code-point order: upper case first (the test cluster is initialised with C collation).
        #expect(try await f.find(["order": "name"]) == ["a4", "a1", "a2", "a3"])
        #expect(try await f.find(["order": "n", "limit": 2]) == ["a1", "a2"])
        #expect(try await f.find(["order": "n", "skip": 1, "limit": 2]) == ["a2", "a3"])
        let counted = try await f.objects.find(
            Fixture.item, params: ["where": ["n": ["$gt": 1]], "count": 1, "limit": 1, "order": "n"], principal: .master)
        #expect(counted.count == 3)
        #expect(counted.results.count == 1)
        let onlyCount = try await f.objects.find(Fixture.item, params: ["count": 1, "limit": 0], principal: .master)
        #expect(onlyCount.count == 4 && onlyCount.results.isEmpty)
    }

    static func projections(_ f: Fixture) async throws {
        let apple: JSON = ["name": "apple"]
        let kept = try #require(try await f.objects.find(Fixture.item, params: ["where": apple, "keys": "n"], principal: .master).results.first)
        #expect(kept["n"] == 1 && kept["name"] == nil && kept["tags"] == nil && kept["objectId"] != nil)
        let dropped = try #require(
            try await f.objects.find(Fixture.item, params: ["where": apple, "excludeKeys": "n,tags"], principal: .master).results.first)
        #expect(dropped["n"] == nil && dropped["tags"] == nil && dropped["name"] == "apple")
        let included = try #require(
            try await f.objects.find(Fixture.item, params: ["where": apple, "include": "owner"], principal: .master).results.first)
        #expect(included["owner"]?["__type"] == "Object" && included["owner"]?["name"] == "ann")
        let plain = try #require(try await f.objects.find(Fixture.item, params: ["where": apple], principal: .master).results.first)
        #expect(plain["owner"]?["__type"] == "Pointer" && plain["owner"]?["name"] == nil)
        let dotted = try #require(
            try await f.objects.find(
                Fixture.item, params: ["where": apple, "include": "owner", "keys": "owner.name"], principal: .master
            ).results.first)
        #expect(dotted["owner"]?["name"] == "ann" && dotted["n"] == nil)
        // The included owner is trimmed to the named key (as Parse does), keeping its identity.
        #expect(dotted["owner"]?["rank"] == nil && dotted["owner"]?["objectId"] != nil && dotted["owner"]?["__type"] == "Object")
        // A bare `owner` among the keys keeps the included object whole; `excludeKeys` reaches below too.
        let whole = try #require(
            try await f.objects.find(Fixture.item, params: ["where": apple, "include": "owner", "keys": "owner"], principal: .master)
                .results.first)
        #expect(whole["owner"]?["rank"] == 1 && whole["owner"]?["name"] == "ann" && whole["name"] == nil)
        let excluded = try #require(
            try await f.objects.find(Fixture.item, params: ["where": apple, "include": "owner", "excludeKeys": "owner.rank"], principal: .master)
                .results.first)
        #expect(excluded["owner"]?["rank"] == nil && excluded["owner"]?["name"] == "ann" && excluded["name"] == "apple")
        let all = try #require(try await f.objects.find(Fixture.item, params: ["where": apple, "include": "*"], principal: .master).results.first)
        #expect(all["owner"]?["rank"] == 1)
    }
}
