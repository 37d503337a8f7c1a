/// Counters for rate limits, kept in the database so that every node sharing it counts the same
/// requests.
package protocol RateLimitStore: Sendable {
    /// Counts one request under `key` in a fixed window of `window` milliseconds: the count so
    /// far in the current window (this request included) and when the window ends (ms since 1970).
    func countRequest(key: String, window: Int64, now: Int64) async throws -> (count: Int, windowEnds: Int64)
    /// Forgets windows that ended before `before` (ms since 1970); the number removed.
    func pruneRateLimits(before: Int64) async throws -> Int
}
