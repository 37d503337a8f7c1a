import Foundation
package import RooftopCore
package import RooftopStorage

/// Finds every role a user has, directly (`users`) or inherited through `roles`, and caches
/// the answer per user.
///
/// Any `_Role` write clears the cache on this node and, through the store's cache bus, on the
/// others; entries also expire after `ttl`.
package actor RoleResolver {
    let store: any DataStore
    let ttl: Duration
    let maxDepth: Int
    let maxRoles: Int
    let clock: any ServerClock
    /// Expiry in milliseconds since 1970, on `clock`.
    private var cache: [String: (roles: [String], expires: Int64)] = [:]
    private var generation = 0

    /// Creates a resolver; `maxRoles` bounds the roles one user can accumulate; entries expire
    /// after `ttl` on `clock`.
    package init(
        store: any DataStore, ttl: Duration = .seconds(5), maxDepth: Int = 32, maxRoles: Int = 1000,
        clock: any ServerClock = WallClock()
    ) {
        self.store = store
        self.ttl = ttl
        self.clock = clock
        self.maxDepth = maxDepth
        self.maxRoles = maxRoles
    }

    /// Forgets every cached answer (called on each `_Role` write).
    package func invalidate() {
        generation += 1
        cache.removeAll()
    }

    /// The principal of a signed-in user, with its roles.
    package func principal(forUser userId: String) async throws -> Principal {
        Principal.user(userId, roles: try await roles(forUser: userId))
    }

    /// Role names of `userId`, sorted.
    package func roles(forUser userId: String) async throws -> [String] {
        let now = self.clock.now().millisecondsSince1970
        // Without the other nodes' invalidations, the cache can't be trusted: resolve every time.
        let live = store.cacheBus.isLive
        // A hit counts only within its TTL, even if the clock stepped back.
        if live, let hit = cache[userId], hit.expires > now, hit.expires - now <= ttl.milliseconds { return hit.roles }
        let startedAt = generation
        let roles = try await resolve(userId)
        // A role write during the lookup may have made this answer stale: don't keep it.
        if live, generation == startedAt {
            if cache.count >= 10_000 { cache.removeAll() }
            cache[userId] = (roles, now + ttl.milliseconds)
        }
        return roles
    }

    /// Breadth-first over `roles` relations; each role is visited once, so cycles end.
    private func resolve(_ userId: String) async throws -> [String] {
        let scope = AccessScope(classes: [.role: .master])
        let user = ObjectRef(className: .user, objectId: userId)
        var frontier = try await find(.field(FieldPath(field: try FieldName("users")), .equals(user.pointerJSON)), scope)
        var seen = Set(frontier.map(\.objectId))
        var names = Set(frontier.compactMap { $0.fields["name"]?.stringValue })
        var depth = 0
        while !frontier.isEmpty, depth < maxDepth, seen.count < maxRoles {
            depth += 1
            let parents = frontier.map { ObjectRef(className: .role, objectId: $0.objectId).pointerJSON }
            let next = try await find(.field(FieldPath(field: try FieldName("roles")), .isIn(parents)), scope)
            frontier = next.filter { seen.insert($0.objectId).inserted }
            names.formUnion(frontier.compactMap { $0.fields["name"]?.stringValue })
        }
        return names.sorted()
    }

    private func find(_ query: QueryNode, _ scope: AccessScope) async throws -> [StoredObject] {
        var options = FindOptions()
        options.limit = maxRoles
        return try await store.find(FindRequest(className: .role, query: query, options: options, scope: scope))
    }
}
