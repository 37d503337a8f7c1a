package import RooftopStorage
import Testing

/// What every store's single-use records must do (`OneTimeStore`): the browser sign-in's flows
/// and app codes rely on a take succeeding once, whoever races for it, and never after expiry.
package enum OneTimeConformance {
    /// Taken once among concurrent takers; an expired record is gone without being returned;
    /// pruning removes only expired ones.
    package static func recordsAreTakenOnce(_ store: any DataStore) async throws {
        try await store.putOneTime(key: "code:a", value: "first", expiresAt: 2_000)
        let taken = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { try await store.takeOneTime(key: "code:a", now: 1_000) } }
            var values: [String?] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(taken.compactMap { $0 } == ["first"])
        #expect(try await store.takeOneTime(key: "code:a", now: 1_000) == nil)

        try await store.putOneTime(key: "code:b", value: "late", expiresAt: 2_000)
        #expect(try await store.takeOneTime(key: "code:b", now: 2_000) == nil)
        try await store.putOneTime(key: "code:b", value: "again", expiresAt: 2_000)
        #expect(try await store.takeOneTime(key: "code:b", now: 1_999) == "again")

        try await store.putOneTime(key: "old", value: "x", expiresAt: 500)
        try await store.putOneTime(key: "new", value: "y", expiresAt: 5_000)
        #expect(try await store.pruneOneTime(before: 1_000) == 1)
        #expect(try await store.takeOneTime(key: "new", now: 1_000) == "y")
    }
}
