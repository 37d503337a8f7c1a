import Foundation
import Logging
import RooftopServices
import RooftopStorage
import ServiceLifecycle

/// Deletes expired sessions (and, when configured, inactive anonymous users), old audit events
/// and ended rate-limit windows every `interval`, for as long as the server runs; stops at once
/// on graceful shutdown so the database can close cleanly. With several nodes on one database,
/// one of them does each round (`DataStore.claimJob`).
struct SessionCleanup: Service {
    let accounts: Accounts
    let store: any DataStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await loop()
        } catch is CancellationError {
            // Shutdown: not a failure of the server.
        }
    }

    private func loop() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // Sleep first: start-up is busy enough, and tests count reads.
                try await Task.sleep(for: interval)
                do {
                    let now = Int64(Date().timeIntervalSince1970 * 1000)
                    guard try await store.claimJob("cleanup", every: interval.milliseconds, now: now) else { continue }
                    let removed = try await accounts.deleteExpiredSessions()
                    if removed > 0 { logger.info("deleted \(removed) expired sessions") }
                    let anonymous = try await accounts.deleteInactiveAnonymousUsers()
                    if anonymous > 0 { logger.info("deleted \(anonymous) inactive anonymous users") }
                    let events = try await accounts.pruneAuditLog()
                    if events > 0 { logger.info("deleted \(events) audit events past retention") }
                    _ = try await store.pruneRateLimits(before: now)
                } catch {
                    logger.error("expired-session cleanup failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}

extension Duration {
    /// The whole milliseconds of this duration.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
