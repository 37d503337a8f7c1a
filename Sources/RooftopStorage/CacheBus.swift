/// A change that makes data cached in memory stale, on every node sharing the database.
package enum CacheEvent: Sendable, Equatable {
    /// One session ended (logout): the digest of its token.
    case sessionToken(digest: String)
    /// Sessions ended, by objectId.
    case sessions(ids: [String])
    /// Every session of a user ended (password change, reset, user deleted).
    case userSessions(userId: String)
    /// A `_Role` changed.
    case roles
    /// A class's schema changed.
    case schema
    /// Parse Config's values changed.
    case config
    /// The webhooks registered through `/hooks` changed.
    case hooks
    /// Events may have been missed (the bus reconnected): drop every cache.
    case everything
}

/// Carries cache invalidations between the nodes on one database.
///
/// A node applies its own changes directly and publishes them for the others. While the bus is
/// not live (no connection to hear the others), caches must not answer: a session revoked on
/// another node would otherwise be served from memory.
package protocol CacheBus: Sendable {
    /// Tells the other nodes about `event` (this node has applied it already).
    func publish(_ event: CacheEvent) async
    /// Whether the other nodes' events arrive now.
    var isLive: Bool { get }
    /// Sets the handler of the other nodes' events (and `.everything` after a gap).
    func onEvent(_ handler: @escaping @Sendable (CacheEvent) async -> Void)
}

/// One node alone on its database (SQLite): nobody to tell, always live.
package struct LocalCacheBus: CacheBus {
    /// Creates the bus.
    package init() {}
    /// Nothing to do: no other node.
    package func publish(_ event: CacheEvent) async {}
    /// Always: there is no one to miss.
    package var isLive: Bool { true }
    /// Never called: no other node.
    package func onEvent(_ handler: @escaping @Sendable (CacheEvent) async -> Void) {}
}
