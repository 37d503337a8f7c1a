/// Short-lived, single-use records kept in the database so that any node can finish what another
/// started: the browser sign-in's pending flows and the codes it hands to apps.
///
/// `take` removes and returns in one statement (`DELETE … RETURNING`), so of two callers racing
/// for one key, at most one gets it, and a replay finds nothing.
package protocol OneTimeStore: Sendable {
    /// Stores `value` under `key` (a digest, never the secret itself) until `expiresAt` (ms since
    /// 1970); a record already under `key` is replaced.
    func putOneTime(key: String, value: String, expiresAt: Int64) async throws
    /// Removes the record under `key` and returns its value when it had not expired at `now`
    /// (ms since 1970); nil when there is none or it expired (it is removed either way).
    func takeOneTime(key: String, now: Int64) async throws -> String?
    /// Forgets records that expired before `before` (ms since 1970); the number removed.
    func pruneOneTime(before: Int64) async throws -> Int
}
