import RooftopCore
import RooftopStorage
import Testing

/// A stored row written as its wire object from the text (`writeWireObject`): what it writes,
/// and when it declines so that decoding and rendering drop internal members.
@Suite struct StoredDocumentWireTests {
    let created = "2024-05-01T12:34:56.789Z"
    let updated = "2024-05-02T00:00:00.000Z"

    func row(_ document: String, readers: String? = nil, writers: String? = nil, createdAt: String? = nil) -> StoredDocument {
        StoredDocument(
            objectId: "abc123", createdAt: createdAt ?? created, updatedAt: updated, readers: readers, writers: writers, document: document)
    }

    /// The wire text, or nil when the row was declined (and nothing was written).
    func wire(_ stored: StoredDocument) throws -> String? {
        var out: [UInt8] = Array("[".utf8)
        guard try stored.writeWireObject(into: &out) else {
            #expect(out == Array("[".utf8))
            return nil
        }
        return String(decoding: out.dropFirst(), as: UTF8.self)
    }

    @Test func writesColumnsThenTheStoredMembers() throws {
        let text = try #require(try wire(row(#" { "title" : "a \"q\" \\", "n":[1,{"_x":2}]} "#)))
        #expect(
            text
                == #"{"objectId":"abc123","createdAt":"2024-05-01T12:34:56.789Z","updatedAt":"2024-05-02T00:00:00.000Z","title" : "a \"q\" \\", "n":[1,{"_x":2}]}"#
        )
        #expect(try JSONParser.parse(text)["n"] == [1, ["_x": 2]])
        #expect(try wire(row("{}")) == #"{"objectId":"abc123","createdAt":"2024-05-01T12:34:56.789Z","updatedAt":"2024-05-02T00:00:00.000Z"}"#)
    }

    /// Only a member *name* starting with `_` sends the row the long way: not a value, not a
    /// nested member, not `_` text inside a string with escaped quotes.
    @Test func declinesInternalMembersOnly() throws {
        #expect(try wire(row(#"{"a":1,"_rperm":["*"]}"#)) == nil)
        #expect(try wire(row(#"{"_hashed_password":"x"}"#)) == nil)
        #expect(try wire(row(#"{"a":[{"b":1}], "_c":2}"#)) == nil)
        #expect(try wire(row(#"{"owner":{"__type":"Pointer","className":"_User","objectId":"u1"}}"#)) != nil)
        #expect(try wire(row(#"{"s":"x\",\"_b\":\"1","c":"_d"}"#)) != nil)
        #expect(try wire(row(#"{"s":"ends in a backslash \\","_e":1}"#)) == nil)
        #expect(try wire(row(#"["not an object"]"#)) == nil)
        #expect(try wire(row("")) == nil)
    }

    @Test func aclFromThePermissionLists() throws {
        func acl(_ readers: String?, _ writers: String?) throws -> JSON? {
            try JSONParser.parse(try #require(try wire(row("{}", readers: readers, writers: writers))))["ACL"]
        }
        #expect(try acl(nil, nil) == nil)
        #expect(try acl(#"["u1"]"#, #"["u1"]"#) == ["u1": ["read": true, "write": true]])
        #expect(
            try acl(#"["*","u1"]"#, #"["u1","role:Admins"]"#) == [
                "*": ["read": true], "u1": ["read": true, "write": true], "role:Admins": ["write": true],
            ])
        #expect(try acl("[]", nil) == [:])
        // Keys in order, each once.
        let text = try #require(try wire(row("{}", readers: #"["u2","u1"]"#, writers: #"["u1","u2"]"#)))
        #expect(text.contains(#""ACL":{"u1":{"read":true,"write":true},"u2":{"read":true,"write":true}}"#))
        #expect(throws: StorageError.self) { try wire(row("{}", readers: #"{"u1":true}"#)) }
    }

    /// Dates in the wire form go out as stored; another ISO form is rewritten; garbage throws.
    @Test func dates() throws {
        let offset = try #require(try wire(row("{}", createdAt: "2024-05-01T14:34:56.7+02:00")))
        #expect(offset.contains(#""createdAt":"2024-05-01T12:34:56.700Z""#))
        #expect(throws: StorageError.self) { try wire(row("{}", createdAt: "yesterday")) }
        #expect(throws: StorageError.self) { try wire(row("{}", createdAt: "2024-05-01T12:34:56.78XZ")) }
    }
}
