package import RooftopStorage

extension Accounts {
    /// Applies a change to this node's session cache, then tells the other nodes.
    func forget(_ event: CacheEvent) async {
        await apply(event)
        await server.store.cacheBus.publish(event)
    }

    /// Applies a change (this node's or another's) to the session cache.
    package func apply(_ event: CacheEvent) async {
        switch event {
        case .sessionToken(let digest): await cache.remove(digest)
        case .sessions(let ids): await cache.removeSessions(Set(ids))
        case .userSessions(let userId): await cache.removeUser(userId)
        case .everything: await cache.removeAll()
        case .roles, .schema, .config, .hooks: break
        }
    }
}
