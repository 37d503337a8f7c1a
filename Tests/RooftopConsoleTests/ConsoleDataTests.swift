import Foundation
import HTTPTypes
import HummingbirdTesting
import RooftopConsole
import RooftopCore
import RooftopStorage
import RooftopTesting
import Testing

/// The console's classes and table pages over real HTTP against a real database: counts that do
/// not scan, keyset paging, sorting, the filter builder judged by the API's parser, and the
/// table's query plan on an index.
@Suite struct ConsoleDataTests: LiveServerTest {
    @Test func classesPageListsEveryClassWithACappedCount() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, _) = try await consoleAdmin(client, stores)
            for i in 0..<5 { _ = try await masterCreate(client, "Item", #"{"n":\#(i)}"#) }
            let page = try await consoleRequest(client, .get, "/console/data", cookies: ["rooftop_console": session])
            #expect(page.status == 200)
            #expect(page.html.contains(#"<a href="/console/data/Item">Item</a></td><td class="num">5</td>"#))
            #expect(page.html.contains(#"href="/console/schema/Item""#))
            #expect(!page.html.contains("_CONSOLE"))
            // The store's count stops at the cap instead of reading the whole table.
            let store = try stores.store
            #expect(try await store.estimatedCount(try ClassName("Item"), cap: 10) == .exact(5))
            let capped = try await store.estimatedCount(try ClassName("Item"), cap: 3)
            #expect(capped == .atLeast(3) || capped == .about(5), "\(capped)")
            #expect(try await store.estimatedCount(try ClassName("Nothing"), cap: 3) == .exact(0))
        }
    }

    @Test func tablePagesByKeysetSortsAndFilters() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, _) = try await consoleAdmin(client, stores)
            var all: Set<String> = []
            for i in 0..<120 {
                // Every other item has no score, more than a page of them: missing values sort
                // first, in both stores, and a page can end on one. Half of those hold an
                // explicit null, which sorts as missing too.
                let score = i % 4 == 0 ? #","score":null"# : i % 2 == 0 ? "" : #","score":\#(i)"#
                all.insert(try await masterCreate(client, "Item", #"{"name":"item-\#(i)"\#(score)}"#))
            }
            let cookies = ["rooftop_console": session]
            for sort in ["", "&sort=createdAt", "&sort=score", "&sort=score&dir=desc", "&sort=name&dir=desc", "&dir=desc"] {
                var seen: [String] = []
                var next: String? = "/console/data/Item?x=1" + sort
                var pages = 0
                while let uri = next {
                    let page = try await consoleRequest(client, .get, uri, cookies: cookies)
                    #expect(page.status == 200, "\(uri)")
                    let ids = page.rowIds("Item")
                    #expect(ids.count == (pages < 2 ? 50 : 20), "\(sort) page \(pages)")
                    seen += ids
                    next = page.link(rel: "next")
                    pages += 1
                    if pages > 4 { break }
                }
                #expect(pages == 3, "\(sort)")
                #expect(Set(seen) == all && seen.count == 120, "every object once, sorted by \(sort)")
            }
            // Sorted by score descending: 119 first.
            let top = try await consoleRequest(client, .get, "/console/data/Item?sort=score&dir=desc", cookies: cookies)
            let first = try #require(top.rowIds("Item").first)
            let firstObject = try await call(client, .get, "/parse/classes/Item/\(first)", master: true)
            #expect(firstObject.json["score"] == 119)
            // The builder: score ≥ 100, names starting with item-11, an `in` list, exists.
            func count(_ query: [String: String]) async throws -> Int {
                let page = try await consoleRequest(client, .get, "/console/data/Item?" + ConsoleQuery.encode(query), cookies: cookies)
                #expect(page.status == 200, "\(query): \(page.html.prefix(300))")
                return page.rowIds("Item").count
            }
            #expect(try await count(["f0": "score", "o0": "gte", "v0": "100"]) == 10)
            #expect(try await count(["f0": "name", "o0": "starts", "v0": "item-11"]) == 11)
            #expect(try await count(["f0": "score", "o0": "in", "v0": "1, 2, 3"]) == 2)
            #expect(try await count(["f0": "score", "o0": "missing", "v0": ""]) == 30, "an explicit null exists, as in the API")
            #expect(try await count(["f0": "score", "o0": "lt", "v0": "10", "f1": "name", "o1": "ne", "v1": "item-1"]) == 4)
            #expect(try await count(["where": #"{"score":{"$gt":115}}"#]) == 2)
            #expect(try await count(["where": #"{"name":{"$regex":"^item-1$"}}"#, "f0": "score", "o0": "exists"]) == 1)
            // Operators where a value belongs are only text.
            #expect(try await count(["f0": "name", "o0": "eq", "v0": #"{"$ne":null}"#]) == 0)
        }
    }

    @Test func invalidFiltersShowTheAPIsMessage() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, _) = try await consoleAdmin(client, stores)
            _ = try await masterCreate(client, "Item", #"{"name":"a"}"#)
            let cookies = ["rooftop_console": session]
            let bogus = #"{"name":{"$bogus":1}}"#
            let api = try await call(
                client, .get, "/parse/classes/Item?where=" + (bogus.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""), master: true)
            let message = try #require(api.json["error"]?.stringValue)
            let deep = String(repeating: #"{"$and":["#, count: 200) + "{}" + String(repeating: "]}", count: 200)
            for query in [
                ["where": bogus], ["where": "{not json"], ["where": deep], ["where": "[1,2]"], ["f0": "$where", "o0": "eq", "v0": "1"],
                ["f0": "name", "o0": "$regex", "v0": "."], ["where": String(repeating: " ", count: 10) + "\u{0}"],
                ["where": #"{"ACL":{"$exists":true}}"#], ["where": "{" + String(repeating: " ", count: 20_000) + "}"],
                ["after": #"{"v":{"$gt":1},"id":"x"}"#, "sort": "name", "f0": "name\u{0}", "o0": "eq"],
            ] {
                let page = try await consoleRequest(client, .get, "/console/data/Item?" + ConsoleQuery.encode(query), cookies: cookies)
                #expect(page.status == 400, "\(query)")
                #expect(page.html.contains("role=\"alert\""), "\(query)")
            }
            let page = try await consoleRequest(client, .get, "/console/data/Item?" + ConsoleQuery.encode(["where": bogus]), cookies: cookies)
            #expect(page.html.contains(message), "the API's own message: \(message)")
        }
    }

    @Test func unknownAndInternalClassesAnswer404() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let (session, csrf) = try await consoleAdmin(client, stores)
            let cookies = ["rooftop_console": session]
            for path in [
                "/console/data/_CONSOLE", "/console/data/_CONSOLE/new", "/console/data/_CONSOLE/abc", "/console/data/Nope",
                "/console/data/Bad%20Name", "/console/data/%24where", "/console/data/_User/..", "/console/data/_User/a%2Fb",
                "/console/data/_User/%00", "/console/roles/..", "/console/roles/nope",
            ] {
                let page = try await consoleRequest(client, .get, path, cookies: cookies)
                #expect(page.status == 404, "\(path)")
            }
            for path in ["/console/data/_CONSOLE/new", "/console/data/_CONSOLE/abc/save", "/console/data/_CONSOLE/abc/delete"] {
                let page = try await consoleRequest(client, .post, path, cookies: cookies, form: ["csrf": csrf, "confirm": "abc"])
                #expect(page.status == 404, "\(path)")
            }
        }
    }

    /// The table's queries read a range of an index, at any size: the default order (objectId)
    /// always, and createdAt once the class has an index on it and objectId (made on the schema
    /// page or through `/schemas`), first page and after a cursor.
    @Test func tableQueriesUseAnIndex() async throws {
        let stores = StoreBox()
        try await withServer(wrap: stores.keep) { client in
            let id = try await masterCreate(client, "Item", #"{"name":"a"}"#)
            let indexed = try await call(
                client, .put, "/parse/schemas/Item", body: #"{"className":"Item","indexes":{"created":{"createdAt":1,"objectId":1}}}"#, master: true)
            #expect(indexed.status == 200, "\(indexed.json)")
            let store = try stores.store
            let schema = try #require(try await store.schema(try ClassName("Item")))
            let after = #"{"id":"\#(id)","v":{"__type":"Date","iso":"2026-01-01T00:00:00.000Z"}}"#
            for query in [
                [:], ["after": #"{"id":"\#(id)","v":null}"#], ["dir": "desc", "after": #"{"id":"\#(id)","v":null}"#], ["sort": "createdAt"],
                ["sort": "createdAt", "after": after], ["sort": "createdAt", "dir": "desc", "after": after],
            ] {
                let params = try ConsoleResponder.tableParams(schema, query: query)
                let options = try FindOptions(params: params, defaultLimit: 100, maxLimit: 1000, limits: QueryLimits())
                let node = try params["where"].map { try QueryNode.parse(where: $0) } ?? .always
                let request = FindRequest(
                    className: schema.className, query: node, options: options, scope: AccessScope(classes: [schema.className: .master]))
                let plan = try await store.queryPlan(request)
                let text = plan.joined(separator: "\n")
                #expect(text.contains("INDEX") || text.contains("Index"), "\(query): \(text)")
                let sortsAll = plan.contains { line in
                    let step = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "")
                    return step.hasPrefix("Sort ") || step.hasPrefix("USE TEMP B-TREE FOR ORDER BY")
                }
                #expect(!sortsAll, "no sort of the whole table: \(query): \(text)")
            }
        }
    }
}
