/// Validated sessions by token digest, so a warm request costs no database round trip.
///
/// Entries live `ttl` at most and never past the session's own expiry; logout and session
/// deletion remove them at once. Bounded: when full, it starts over.
actor SessionCache {
    struct Entry {
        let userId: String
        let sessionId: String
        let until: ContinuousClock.Instant
    }

    private var entries: [String: Entry] = [:]
    let ttl: Duration
    let capacity: Int

    init(ttl: Duration = .seconds(30), capacity: Int = 10_000) {
        self.ttl = ttl
        self.capacity = capacity
    }

    func get(_ digest: String) -> Entry? {
        guard let entry = entries[digest] else { return nil }
        if entry.until <= .now {
            entries[digest] = nil
            return nil
        }
        return entry
    }

    func put(_ digest: String, userId: String, sessionId: String, expiresIn: Duration) {
        if entries.count >= capacity { entries.removeAll() }
        entries[digest] = Entry(userId: userId, sessionId: sessionId, until: .now + min(ttl, expiresIn))
    }

    func remove(_ digest: String) { entries[digest] = nil }

    func removeUser(_ userId: String) { entries = entries.filter { $0.value.userId != userId } }

    /// One pass over the cache, however many sessions end together.
    func removeSessions(_ sessionIds: Set<String>) {
        guard !sessionIds.isEmpty else { return }
        entries = entries.filter { !sessionIds.contains($0.value.sessionId) }
    }
}
