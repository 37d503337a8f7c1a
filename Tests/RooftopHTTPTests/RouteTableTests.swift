import Foundation
import RooftopTesting
import Testing

@testable import RooftopHTTP

/// The route table against its documentation, and against itself.
@Suite struct RouteTableTests {
    /// `docs/compatibility.md`'s route list: `METHOD path needs` per row.
    static func documentedRoutes() throws -> [String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/compatibility.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let row = /^\| `(GET|POST|PUT|DELETE)` \| `([^`]+)` \| (\w+) \|/
        return text.split(separator: "\n").compactMap { line in
            line.firstMatch(of: row).map { "\($0.1) \($0.2) \($0.3)" }
        }
    }

    static func needs(_ access: RouteAccess) -> String {
        switch access {
        case .open: "nothing"
        case .client: "keys"
        case .session: "session"
        case .user: "user"
        case .master: "master"
        }
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let table = ParseRoutes.table.map { "\($0.method.rawValue) \($0.pattern) \(Self.needs($0.access))" }
        let documented = try Self.documentedRoutes()
        #expect(documented.count > 40, "the docs' route list was not found")
        #expect(Set(table).subtracting(documented).sorted() == [], "routes missing from docs/compatibility.md")
        #expect(Set(documented).subtracting(table).sorted() == [], "documented routes the server does not have")
        #expect(Set(table).count == table.count, "a route is listed twice")
    }

    /// A route that an earlier one always matches first could never run.
    @Test func noRouteIsShadowedByAnEarlierOne() {
        for route in ParseRoutes.table {
            let path = route.pattern.split(separator: "/").map { segment -> String in segment.first == ":" ? "value" : String(segment) }
            let found = ParseRoutes.index.find(route.method, path)
            #expect(found?.0.pattern == route.pattern, "\(route.method.rawValue) \(route.pattern) is reached as \(found?.0.pattern ?? "nothing")")
        }
    }

    @Test func pathParametersAndFixedClassesComeFromTheMatch() throws {
        let get = try #require(ParseRoutes.index.find(.get, ["classes", "Note", "abc123"]))
        #expect(get.1 == ["className": "Note", "objectId": "abc123"])
        let role = try #require(ParseRoutes.index.find(.put, ["roles", "r1"]))
        #expect(role.1 == ["className": "_Role", "objectId": "r1"])
        #expect(role.0.transactional == .update)
        let signUp = try #require(ParseRoutes.index.find(.post, ["classes", "_User"]))
        #expect(signUp.0.limitPath == "/users")
        #expect(ParseRoutes.index.find(.put, ["classes"]) == nil)
        #expect(ParseRoutes.index.find(.get, ["classes", "Note", "a", "b"]) == nil)
    }

    @Test func limitAliasesFillTheirParameters() {
        #expect(ParseRoutes.fill("/users/:objectId", ["objectId": "u1"]) == "/users/u1")
        #expect(ParseRoutes.fill("/users", [:]) == "/users")
    }
}
