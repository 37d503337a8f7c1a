import RooftopCore

/// Validated sessions by token digest, so a warm request costs no database round trip.
///
/// Entries live `ttl` at most and never past the session's own expiry; logout and session
/// deletion remove them at once. Bounded: when full, it starts over.
actor SessionCache {
    struct Entry {
        let userId: String
        let sessionId: String
        /// Milliseconds since 1970, on the server's clock.
        let until: Int64
    }

    private var entries: [String: Entry] = [:]
    /// Bumped by every removal. A reader takes it before reading the database and may store
    /// what it read only if no removal happened meanwhile: a logout racing a validation must
    /// not leave the revoked session cached.
    private var generation = 0
    let ttl: Duration
    let capacity: Int
    let clock: any ServerClock

    init(ttl: Duration = .seconds(30), capacity: Int = 10_000, clock: any ServerClock) {
        self.ttl = ttl
        self.capacity = capacity
        self.clock = clock
    }

    /// The cached entry, or nil and the generation to pass to `put`.
    func lookup(_ digest: String) -> (Entry?, generation: Int) { (get(digest), generation) }

    func get(_ digest: String) -> Entry? {
        guard let entry = entries[digest] else { return nil }
        let now = clock.now().millisecondsSince1970
        // Past its time, or the clock stepped back (it never outlives its TTL either way).
        if entry.until <= now || entry.until - now > ttl.milliseconds {
            entries[digest] = nil
            return nil
        }
        return entry
    }

    func put(_ digest: String, userId: String, sessionId: String, expiresIn: Duration, readAt: Int? = nil) {
        if let readAt, readAt != generation { return }
        if entries.count >= capacity { entries.removeAll() }
        entries[digest] = Entry(userId: userId, sessionId: sessionId, until: clock.now().millisecondsSince1970 + min(ttl, expiresIn).milliseconds)
    }

    func remove(_ digest: String) {
        generation += 1
        entries[digest] = nil
    }

    func removeUser(_ userId: String) {
        generation += 1
        entries = entries.filter { $0.value.userId != userId }
    }

    /// One pass over the cache, however many sessions end together.
    func removeSessions(_ sessionIds: Set<String>) {
        guard !sessionIds.isEmpty else { return }
        generation += 1
        entries = entries.filter { !sessionIds.contains($0.value.sessionId) }
    }

    /// Forgets everything (events from other nodes may have been missed).
    func removeAll() {
        generation += 1
        entries.removeAll()
    }
}
