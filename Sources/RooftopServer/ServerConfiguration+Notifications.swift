import RooftopCore
import RooftopServices

extension ServerConfiguration {
    /// The members of `securityNotifications`.
    static let securityNotificationKeys = [
        "passwordChanged", "emailChanged", "newDevice", "providerLinked", "providerUnlinked", "maxPerUserPerHour",
    ]

    /// `securityNotifications`: `false` turns every notice off, `true` on; an object sets each
    /// one (`passwordChanged`, `emailChanged`, `newDevice`, `providerLinked`, `providerUnlinked`)
    /// and `maxPerUserPerHour` (1–100); members not given keep their defaults.
    mutating func applySecurityNotifications(_ value: ConfigValue) throws {
        if let on = try? value.bool() {
            accounts.securityNotifications = on ? SecurityNotificationSettings() : .off
            return
        }
        var settings = accounts.securityNotifications
        for (key, json) in try value.object() {
            let item = value.member(key, json)
            switch key {
            case "passwordChanged": settings.passwordChanged = try item.bool()
            case "emailChanged": settings.emailChanged = try item.bool()
            case "newDevice": settings.newDevice = try item.bool()
            case "providerLinked": settings.providerLinked = try item.bool()
            case "providerUnlinked": settings.providerUnlinked = try item.bool()
            case "maxPerUserPerHour": settings.maxPerUserPerHour = try item.int(in: 1...100)
            default: throw value.unknownMember(key, known: Self.securityNotificationKeys)
            }
        }
        accounts.securityNotifications = settings
    }

    /// The settings as `config print` shows them.
    var securityNotificationsJSON: JSON {
        let settings = accounts.securityNotifications
        return [
            "passwordChanged": .bool(settings.passwordChanged), "emailChanged": .bool(settings.emailChanged),
            "newDevice": .bool(settings.newDevice), "providerLinked": .bool(settings.providerLinked),
            "providerUnlinked": .bool(settings.providerUnlinked), "maxPerUserPerHour": .number(Double(settings.maxPerUserPerHour)),
        ]
    }
}
