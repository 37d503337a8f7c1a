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
        return settings
    }
}

/// A change to an account its owner should hear about.
enum SecurityNotice: Sendable {
    case passwordChanged
    /// From `old` (the address the user had, if any) to the address the user has now.
    case emailChanged(old: String?)
    /// A session was opened; a notice goes out only when the device is new to the account.
    case signedIn(installationId: String?, device: [String: JSON])
    /// A sign-up's first session: its device is remembered, nothing is sent.
    case signedUp(installationId: String?)
    case providerLinked(String)
    case providerUnlinked(String)
}

/// Security notices: mail to the user when the password or email changes, a new
/// device signs in, or a sign-in method is linked or unlinked.
///
/// `notify` is the one hook, called by the use cases right after they record the matching audit
/// event. Everything — reading the user, the new-device check, rendering, queueing — runs in
/// `background` after the request's write, and the mail goes through the `MailQueue`: the
/// request never waits for any of it. Anonymous users and users without an email get nothing;
/// no notice carries a token or a password.
extension Accounts {
    /// How long a device stays known to an account after its last sign-in (about 13 months).
    static let knownDeviceLifetime: Int64 = 400 * 86_400_000

    /// Sends `notice` about `userId` (in the background) when its kind is on and mail is set up.
    func notify(_ notice: SecurityNotice, userId: String) {
        guard let mail, isEnabled(notice) else { return }
        let client = ClientInfo.current
        let now = objects.clock()
        background.start("security notice") {
            guard let user = try await user(userId) else { return }
            switch notice {
            case .signedIn(let installationId, let device):
                guard try await rememberDevice(of: userId, installationId: installationId, client: client), !Self.isAnonymous(user) else {
                    return
                }
                await send(.newDevice, about: user, device: device, at: now, mail: mail)
            case .signedUp(let installationId):
                _ = try await rememberDevice(of: userId, installationId: installationId, client: client)
            case .passwordChanged:
                await send(.passwordChanged, about: user, device: await deviceFields(installationId: nil, at: now), at: now, mail: mail)
            case .emailChanged(let old):
                let device = await deviceFields(installationId: nil, at: now)
                guard let new = user.fields["email"]?.stringValue, old.map(AccountKey.normalize) != AccountKey.normalize(new) else { return }
                // The old address learns where the account went (partly hidden); the new one
                // learns nothing about the account but that it exists.
                if let old {
                    try await rememberPreviousEmail(old, of: userId)
                    await send(.emailChanged, about: user, to: old, device: device, at: now, mail: mail, extra: ["newEmail": Self.masked(new)])
                }
                await send(.emailAdded, about: user, device: device, at: now, mail: mail)
            case .providerLinked(let provider):
                await send(
                    .providerLinked, about: user, device: await deviceFields(installationId: nil, at: now), at: now, mail: mail,
                    extra: ["provider": provider])
            case .providerUnlinked(let provider):
                await send(
                    .providerUnlinked, about: user, device: await deviceFields(installationId: nil, at: now), at: now, mail: mail,
                    extra: ["provider": provider])
            }
        }
    }

    private func isEnabled(_ notice: SecurityNotice) -> Bool {
        let settings = config.securityNotifications
        switch notice {
        case .passwordChanged: return settings.passwordChanged
        case .emailChanged: return settings.emailChanged
        // The first session's device is remembered even with notices off, so turning them on
        // later doesn't report every old device as new.
        case .signedIn, .signedUp: return true
        case .providerLinked(let name): return settings.providerLinked && name != "anonymous"
        case .providerUnlinked(let name): return settings.providerUnlinked && name != "anonymous"
        }
    }

    /// Whether the device this sign-in came from is new to the account: one the account has a
    /// sign-in from in the last `knownDeviceLifetime` is not, and neither is the first device
    /// ever recorded (the sign-up's, or the first sign-in after an upgrade). A device is its
    /// installation id, else the coarse network and the `User-Agent`. The record is kept in the
    /// database (shared by every node) under digests, never the ids themselves.
    func rememberDevice(of userId: String, installationId: String?, client: ClientInfo) async throws -> Bool {
        let device =
            installationId.map { "installation:" + $0.lowercased() }
            ?? "network:\(client.ip.map(Self.coarseAddress) ?? "")|agent:\(String((client.userAgent ?? "").prefix(512)))"
        let now = objects.clock().millisecondsSince1970
        let store = server.store
        let deviceKey = "device:" + tokens.digest(userId + "\n" + device)
        let known = try await store.takeOneTime(key: deviceKey, now: now) != nil
        try await store.putOneTime(key: deviceKey, value: "1", expiresAt: now + Self.knownDeviceLifetime)
        let historyKey = "devices:" + tokens.digest(userId)
        let hadHistory = try await store.takeOneTime(key: historyKey, now: now) != nil
        try await store.putOneTime(key: historyKey, value: "1", expiresAt: now + Self.knownDeviceLifetime)
        guard !known, hadHistory else { return false }
        guard config.securityNotifications.newDevice else { return false }
        return true
    }

    /// Renders and queues one notice to `address` (the user's email by default), in the user's
    /// language, within the per-user budget.
    private func send(
        _ kind: MailTemplates.Kind, about user: StoredObject, to address: String? = nil, device: [String: JSON], at now: ParseDate,
        mail: AccountMail, extra: [String: String] = [:]
    ) async {
        guard !Self.isAnonymous(user), let to = address ?? user.fields["email"]?.stringValue, !to.isEmpty else { return }
        guard noticeBudget.take(user.objectId, now: now.millisecondsSince1970, perHour: config.securityNotifications.maxPerUserPerHour) else {
            audit.logger.warning("security notice dropped: hourly limit reached", metadata: ["kind": "\(kind.rawValue)", "user": "\(user.objectId)"])
            return
        }
        let language = mail.locale.choose(userLocale: user.fields["locale"]?.stringValue, acceptLanguage: nil)
        var values = [
            "appName": mail.appName, "username": user.fields["username"]?.stringValue ?? "",
            "time": Self.noticeTime(now), "device": Self.describe(device, language: language),
            "address": device["createdAddress"]?.stringValue ?? (language == "ja" ? "不明" : "unknown"),
            "link": mail.page("forgot_password"),
        ]
        values.merge(extra) { $1 }
        let message = mail.templates.render(kind, language: language, values: values)
        await mail.queue.send(
            MailMessage(
                from: mail.from, to: to, subject: message.subject, text: message.text, html: message.html,
                headers: [("X-Rooftop-Kind", kind.rawValue)]))
    }

    /// A user that only ever signed in anonymously.
    static func isAnonymous(_ user: StoredObject) -> Bool {
        linkedProviders(user) == ["anonymous"] && user.fields[InternalField.hashedPassword.rawValue] == nil
    }

    /// `ana@example.com` → `a***@example.com`: enough for the owner to recognise, not to copy.
    static func masked(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@"), at > email.startIndex else { return "***" }
        return String(email[email.startIndex]) + "***" + email[at...]
    }

    /// `2026-11-26 05:04 UTC`.
    static func noticeTime(_ date: ParseDate) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(date.millisecondsSince1970) / 1000))
    }

    /// `Ana's iPhone (ios, Todo 2.1)`, or the client's `User-Agent`, or "unknown"; one line of
    /// at most 160 characters (the values are the client's own words).
    static func describe(_ device: [String: JSON], language: String) -> String {
        let field = { (key: String) in device[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        let app = [field("appName"), field("appVersion")].compactMap { $0 }.joined(separator: " ")
        let details = [field("deviceType"), app.isEmpty ? nil : app].compactMap { $0 }.joined(separator: ", ")
        var text = field("deviceName").map { details.isEmpty ? $0 : "\($0) (\(details))" } ?? (details.isEmpty ? nil : details)
        if text == nil, let agent = ClientInfo.current.userAgent, !agent.isEmpty { text = agent }
        let line = MailMessage.clean(text ?? (language == "ja" ? "不明" : "unknown"))
        return line.count > 160 ? String(line.prefix(159)) + "…" : line
    }
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
