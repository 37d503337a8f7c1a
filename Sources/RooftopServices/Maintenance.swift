package import Logging
import RooftopCore
package import RooftopStorage
import ServiceLifecycle

/// Deletes expired sessions (and, when configured, inactive anonymous users), old audit events
/// and ended rate-limit windows every `interval` on the server's clock, for as long as the server
/// runs; stops at once on graceful shutdown so the database can close cleanly. With several
/// nodes on one database, one of them does each round (`DataStore.claimJob`).
package struct Maintenance: Service {
    let accounts: AccountCleanup
    let store: any DataStore
    let clock: any ServerClock
    let interval: Duration
    let logger: Logger

    /// Creates the job; it starts when the service group runs it.
    package init(accounts: Accounts, store: any DataStore, clock: any ServerClock, interval: Duration, logger: Logger) {
        self.accounts = AccountCleanup(accounts: accounts)
        self.store = store
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    /// Runs rounds until shutdown.
    package func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    // Sleep first: start-up is busy enough, and tests count reads.
                    try await clock.sleep(for: interval)
                    await round()
                }
            }
        } catch is CancellationError {
            // Shutdown: not a failure of the server.
        }
    }

    /// One round, if this node claims it.
    func round() async {
        do {
            let now = clock.now().millisecondsSince1970
            guard try await store.claimJob("cleanup", every: interval.milliseconds, now: now) else { return }
            let removed = try await accounts.deleteExpiredSessions()
            if removed > 0 { logger.info("deleted \(removed) expired sessions") }
            let anonymous = try await accounts.deleteInactiveAnonymousUsers()
            if anonymous > 0 { logger.info("deleted \(anonymous) inactive anonymous users") }
            let events = try await accounts.pruneAuditLog()
            if events > 0 { logger.info("deleted \(events) audit events past retention") }
            _ = try await store.pruneRateLimits(before: now)
            _ = try await store.pruneOneTime(before: now)
            // Ended console sessions (admins never expire).
            _ = try await store.pruneConsoleRecords(before: now)
        } catch {
            logger.error("expired-session cleanup failed", metadata: ["error": "\(error)"])
        }
    }
}
