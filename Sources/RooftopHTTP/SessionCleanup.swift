import Foundation
import Logging
import RooftopServices
import RooftopStorage
import ServiceLifecycle

/// Deletes expired sessions (and, when configured, inactive anonymous users) and ended
/// rate-limit windows every `interval`, for as long as the server runs; stops at once on graceful
/// shutdown so the database can close cleanly.
struct SessionCleanup: Service {
    let accounts: Accounts
    let limits: any RateLimitStore
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
                    let removed = try await accounts.deleteExpiredSessions()
                    if removed > 0 { logger.info("deleted \(removed) expired sessions") }
                    let anonymous = try await accounts.deleteInactiveAnonymousUsers()
                    if anonymous > 0 { logger.info("deleted \(anonymous) inactive anonymous users") }
                    let events = try await accounts.pruneAuditLog()
                    if events > 0 { logger.info("deleted \(events) audit events past retention") }
                    _ = try await limits.pruneRateLimits(before: Int64(Date().timeIntervalSince1970 * 1000))
                } catch {
                    logger.error("expired-session cleanup failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
