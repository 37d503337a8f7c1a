import RooftopCore
import RooftopStorage
import Testing

/// Which finds a store may run on the calling thread: one row by primary key, decided by that
/// row's own columns; anything that can read other rows or classes goes to a reader thread.
@Suite struct PointLookupTests {
    func lookup(_ query: JSON) throws -> Bool {
        let note = try ClassName("Note")
        return FindRequest(className: note, query: try QueryNode.parse(where: query), scope: AccessScope(classes: [note: .master]))
            .isPointLookup
    }

    @Test func oneRowByItsIdIsAPointLookup() throws {
        #expect(try lookup(["objectId": "abc123"]))
        #expect(try lookup(["objectId": "abc123", "score": ["$gt": 1], "title": ["$in": ["a", "b"]]]))
        #expect(try lookup(["$and": [["objectId": "abc123"], ["title": ["$exists": true]]]]))
    }

    @Test func scansAndSubqueriesAreNot() throws {
        #expect(try !lookup([:]))
        #expect(try !lookup(["score": 1]))
        #expect(try !lookup(["objectId": ["$in": ["a", "b"]]]), "several ids")
        #expect(try !lookup(["objectId": ["$ne": "a"]]))
        #expect(try !lookup(["$or": [["objectId": "a"], ["score": 1]]]), "an alternative that scans")
        #expect(try !lookup(["objectId": "a", "title": ["$regex": "^x"]]))
        #expect(try !lookup(["objectId": "a", "owner": ["$inQuery": ["where": [:], "className": "_User"]]]))
        let many = JSON.array((0..<101).map { .string("v\($0)") })
        #expect(try !lookup(["objectId": "a", "title": ["$in": many]]), "a long list is not a row's own check")
    }
}
