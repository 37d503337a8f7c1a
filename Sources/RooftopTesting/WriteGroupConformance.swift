import RooftopCore
package import RooftopStorage
import Testing

/// What every store's write groups must do (`WriteGroup`): opening a session writes the session,
/// trims the user's oldest past the cap and exchanges the device's records in one transaction.
package enum WriteGroupConformance {
    static let session = ClassName.session
    static let grant = SchemaGrant(createClass: true, addFields: true)

    static func sessionInsert(_ id: String, user: String, at milliseconds: Int64) throws -> WriteOperation {
        let write = try ObjectWrite(body: ["user": ["__type": "Pointer", "className": "_User", "objectId": .string(user)]], isCreate: true)
        return .insert(className: session, objectId: id, at: ParseDate(millisecondsSince1970: milliseconds), write: write, grant: grant)
    }

    static func ofUser(_ user: String, except id: String) throws -> QueryNode {
        .and([
            try QueryNode.parse(where: ["user": ["__type": "Pointer", "className": "_User", "objectId": .string(user)]]),
            .field(FieldPath(field: .objectId), .notEquals(.string(id))),
        ])
    }

    /// A trim deletes the oldest matches past the ones kept (newest first, ties by id), at most
    /// its limit, never another user's; an exchange stores the new value and returns the live
    /// old one (nil when absent or expired); a failing write undoes the trims and exchanges.
    package static func trimsAndExchangesRunInTheGroup(_ store: any DataStore) async throws {
        for i in 0..<5 { _ = try await store.write([try sessionInsert("s\(i)aaaaaaa", user: "userA1234", at: 1_000 + Int64(i))]) }
        _ = try await store.write([try sessionInsert("otheruser1", user: "userB1234", at: 500)])
        try await store.putOneTime(key: "known", value: "old", expiresAt: 10_000)
        try await store.putOneTime(key: "stale", value: "gone", expiresAt: 1_500)

        var group = WriteGroup([try sessionInsert("new000000a", user: "userA1234", at: 2_000)])
        group.trims = [WriteGroup.Trim(session, try ofUser("userA1234", except: "new000000a"), keeping: 2)]
        group.exchanges = ["known", "stale", "absent"].map { WriteGroup.OneTimeExchange(key: $0, value: "now", expiresAt: 9_000, now: 2_000) }
        let outcome = try await store.write(group)
        #expect(outcome.outcomes.count == 1)
        #expect(outcome.trimmed == [["s2aaaaaaa", "s1aaaaaaa", "s0aaaaaaa"]])
        #expect(outcome.previous == ["old", nil, nil])
        let left = try await store.find(
            FindRequest(className: session, query: try QueryNode.parse(where: [:]), scope: AccessScope(classes: [session: .master])))
        #expect(Set(left.map(\.objectId)) == ["new000000a", "s4aaaaaaa", "s3aaaaaaa", "otheruser1"])
        #expect(try await store.takeOneTime(key: "absent", now: 2_000) == "now")

        // At most `limit` go at once; what is past it waits for the next write.
        var limited = WriteGroup([])
        limited.trims = [WriteGroup.Trim(session, try ofUser("userA1234", except: "new000000a"), keeping: 0, limit: 1)]
        #expect(try await store.write(limited).trimmed == [["s4aaaaaaa"]])

        // A group whose write fails trims nothing and exchanges nothing.
        var failing = WriteGroup([
            try sessionInsert("new000000b", user: "userA1234", at: 3_000), try sessionInsert("new000000b", user: "userA1234", at: 3_000),
        ])
        failing.trims = [WriteGroup.Trim(session, try ofUser("userA1234", except: "new000000b"), keeping: 0)]
        failing.exchanges = [WriteGroup.OneTimeExchange(key: "known", value: "failed", expiresAt: 9_000, now: 3_000)]
        await #expect(throws: (any Error).self) { try await store.write(failing) }
        let after = try await store.find(
            FindRequest(className: session, query: try QueryNode.parse(where: [:]), scope: AccessScope(classes: [session: .master])))
        #expect(Set(after.map(\.objectId)) == ["new000000a", "s3aaaaaaa", "otheruser1"])
        #expect(try await store.takeOneTime(key: "known", now: 3_000) == "now")
    }
}
