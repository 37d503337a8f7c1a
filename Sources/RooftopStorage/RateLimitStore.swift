/// Counters for rate limits, kept in the database so that every node sharing it counts the same
/// requests.
package protocol RateLimitStore: Sendable {
    /// Counts one request under `key` in a fixed window of `window` milliseconds: the count so
    /// far in the current window (this request included) and when the window ends (ms since 1970).
    func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64)
    /// Counts one request under each of `counters` (a key and its window) in one transaction:
    /// every limit a request meets costs one round trip together. The results in `counters`' order.
    func countRequests(_ counters: [(key: String, window: Int64)], now: Int64) async throws -> [(count: Int, windowEnds: Int64)]
    /// Forgets windows that ended before `before` (ms since 1970); the number removed.
    func pruneRateLimits(before: Int64) async throws -> Int
}

extension RateLimitStore {
    /// One count after the other (a store without a transaction of its own for them).
    package func countRequests(_ counters: [(key: String, window: Int64)], now: Int64) async throws -> [(count: Int, windowEnds: Int64)] {
        var results: [(count: Int, windowEnds: Int64)] = []
        for counter in counters { results.append(try await countRequest(key: counter.key, window: counter.window, now: now)) }
        return results
    }
}
