import RooftopCore
import RooftopServices

extension ServerConfiguration {
    /// `securityNotifications`' members: each notice, and how many a user may get.
    static let securityNotificationMembers: [ConfigKey] = [
        .bool("securityNotifications.passwordChanged", \.accounts.securityNotifications.passwordChanged, "the password changed"),
        .bool(
            "securityNotifications.emailChanged", \.accounts.securityNotifications.emailChanged,
            "the email changed (a notice to both addresses)"),
        .bool("securityNotifications.newDevice", \.accounts.securityNotifications.newDevice, "a device new to the account signed in"),
        .bool("securityNotifications.providerLinked", \.accounts.securityNotifications.providerLinked, "a sign-in method was linked"),
        .bool("securityNotifications.providerUnlinked", \.accounts.securityNotifications.providerUnlinked, "a sign-in method was unlinked"),
        .bool(
            "securityNotifications.secondFactor", \.accounts.securityNotifications.secondFactor,
            "a second factor was enabled or removed, or a recovery code was used"),
        .bool("securityNotifications.passkeys", \.accounts.securityNotifications.passkeys, "a passkey was added or removed"),
        .int(
            "securityNotifications.maxPerUserPerHour", \.accounts.securityNotifications.maxPerUserPerHour,
            "notices one user is sent per hour by one node at most (1–100); the rest are dropped and logged", in: 1...100),
    ]

    /// `securityNotifications: false` turns every notice off, `true` on (as well as an object).
    static func applySecurityNotificationsSwitch(_ configuration: inout ServerConfiguration, _ value: ConfigValue) throws -> Bool {
        guard let on = try? value.bool() else { return false }
        configuration.accounts.securityNotifications = on ? SecurityNotificationSettings() : .off
        return true
    }
}
