import Foundation
package import RooftopCore

/// The time the services act on: the wall clock when serving, a clock the test moves in tests.
///
/// Every expiry (sessions, tokens, lockouts, rate-limit windows, caches) and every periodic job
/// is measured on it, so a test advances time instead of sleeping.
package protocol ServerClock: Sendable {
    /// Now, to the millisecond.
    func now() -> ParseDate
    /// Returns once `duration` has passed on this clock; throws `CancellationError` if cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's wall clock.
package struct WallClock: ServerClock {
    /// Creates the wall clock.
    package init() {}

    /// Now, from the system.
    package func now() -> ParseDate {
        ParseDate(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Sleeps on the system's clock.
    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension Duration {
    /// The whole milliseconds of this duration.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

/// A clock stopped at one instant: for a command that only reads (the audit log's reader), and
/// for tests and benchmarks that need time to stand still.
package struct FixedClock: ServerClock {
    /// The instant.
    package let instant: ParseDate

    /// A clock at `milliseconds` since 1970.
    package init(millisecondsSince1970 milliseconds: Int64) { instant = ParseDate(millisecondsSince1970: milliseconds) }

    /// A clock at `instant`.
    package init(_ instant: ParseDate) { self.instant = instant }

    /// Always the same instant.
    package func now() -> ParseDate { instant }

    /// Time does not pass: waits on the system's clock, as nothing else would wake it.
    package func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
