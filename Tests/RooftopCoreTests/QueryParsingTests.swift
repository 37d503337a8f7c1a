import RooftopCore
import Testing

@Suite struct QueryParsingTests {
    @Test func parsesOperators() throws {
        let node = try QueryNode.parse(where: ["score": ["$gte": 10, "$lt": 20], "name": "ana"])
        guard case .and(let parts) = node else {
            Issue.record("expected and")
            return
        }
        #expect(parts.count == 3)
    }

    static let badQueries: [(String, Int)] = [
        (#"{"a;b":1}"#, 105), (#"{"ACL":{"x":1}}"#, 102), (#"{"a":{"$where":"1"}}"#, 102), (#"{"a":{"$regex":"x","$options":"g"}}"#, 102),
        (#"{"a":{"$nearSphere":{}}}"#, 102), (#"{"_rperm":{"$in":["*"]}}"#, 105), (#"{"a.b'c":1}"#, 105), (#"{"a":{"$in":1}}"#, 102),
    ]

    @Test(arguments: badQueries)
    func rejectsBadQueries(_ query: String, _ code: Int) throws {
        let json = try JSONParser.parse(query)
        #expect { try QueryNode.parse(where: json) } throws: { ($0 as? ParseError)?.code.rawValue == code }
    }

    @Test func enforcesComplexityLimits() {
        var deep: JSON = ["a": 1]
        for _ in 0..<20 { deep = ["$or": [deep]] }
        #expect { try QueryNode.parse(where: deep) } throws: { ($0 as? ParseError)?.code == .invalidQuery }
        let huge: JSON = ["a": ["$in": .array((0..<5000).map { JSON.number(Double($0)) })]]
        #expect { try QueryNode.parse(where: huge) } throws: { ($0 as? ParseError)?.code == .invalidQuery }
    }

    @Test func aclParsingRejectsMalformed() throws {
        #expect(throws: ParseError.self) { try ACL(json: ["*": ["read": "yes"]]) }
        #expect(throws: ParseError.self) { try ACL(json: ["bad key!": ["read": true]]) }
        #expect(try ACL(json: ["*": ["read": true], "role:Admins": ["write": true]]) == ACL(readers: ["*"], writers: ["role:Admins"]))
    }
}
