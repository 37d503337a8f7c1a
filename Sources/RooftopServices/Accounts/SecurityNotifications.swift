import Foundation
import Logging
import RooftopCore
import RooftopMail
import RooftopStorage

/// Which security notices are sent (`securityNotifications`); all on by default, and only ever
/// sent when account mail is configured.
package struct SecurityNotificationSettings: Sendable, Equatable {
    /// The password changed (`PUT /users/:id`, the reset link, the hosted form).
    package var passwordChanged = true
    /// The email changed: a notice to the old address and one to the new.
    package var emailChanged = true
    /// A device this account never signed in from did.
    package var newDevice = true
    /// A sign-in method (`authData` provider) was linked.
    package var providerLinked = true
    /// A sign-in method was unlinked.
    package var providerUnlinked = true
    /// A second factor was enabled or removed, or a recovery code was used.
    package var secondFactor = true
    /// A passkey was added to or removed from the account.
    package var passkeys = true
    /// Notices one user is sent per hour by one node at most; the rest are dropped and logged.
    package var maxPerUserPerHour = 10

    /// Creates the defaults (everything on).
    package init() {}

    /// Every notice off.
    package static var off: SecurityNotificationSettings {
        var settings = SecurityNotificationSettings()
        settings.passwordChanged = false
        settings.emailChanged = false
        settings.newDevice = false
        settings.providerLinked = false
        settings.providerUnlinked = false
        settings.secondFactor = false
        settings.passkeys = false
        return settings
    }
}

/// A change to an account its owner should hear about.
enum SecurityNotice: Sendable {
    case passwordChanged
    /// From `old` (the address the user had, if any) to the address the user has now.
    case emailChanged(old: String?)
    /// A session was opened from a device new to the account (`SecurityNotices.isNewDevice`).
    case newDevice(device: [String: JSON])
    case providerLinked(String)
    case providerUnlinked(String)
    case secondFactorEnabled
    case secondFactorRemoved
    /// A recovery code stood in for a code; `left` remain.
    case recoveryCodeUsed(left: Int)
    /// A passkey named so was added.
    case passkeyAdded(name: String)
    /// A passkey named so was removed.
    case passkeyRemoved(name: String)
}

/// How many notices each user was sent in the current hour, on this node: a flood of sign-ins
/// (each from a "new" device) queues at most `perHour` mails per user, and the table itself
/// stays bounded.
final class NoticeBudget: Sendable {
    private let counts = LockedValue([String: (hour: Int64, count: Int)]())

    /// Whether one more notice to `userId` fits in this hour; counts it if so.
    func take(_ userId: String, now: Int64, perHour limit: Int) -> Bool {
        let hour = now / 3_600_000
        return counts.withLock { counts in
            if counts.count > 10_000 { counts = counts.filter { $0.value.hour == hour } }
            let used = counts[userId].map { $0.hour == hour ? $0.count : 0 } ?? 0
            guard used < limit else { return false }
            counts[userId] = (hour: hour, count: used + 1)
            return true
        }
    }
}
