import Foundation
import Logging
import RooftopCore
import RooftopMail
import RooftopStorage

/// Security notices: mail to the user when the password or email changes, a new
/// device signs in, a sign-in method is linked or unlinked, or a second factor is enabled,
/// removed or stood in for by a recovery code.
///
/// `notify` is the one hook, called by the use cases right after they record the matching audit
/// event. Everything — reading the user, the new-device check, rendering, queueing — runs in
/// `background` after the request's write, and the mail goes through the `MailQueue`: the
/// request never waits for any of it. Anonymous users and users without an email get nothing;
/// no notice carries a token or a password. An address changed away keeps its reset right for
/// 24 hours (`previousOwner`).
package struct SecurityNotices: Sendable {
    /// The account use cases it acts through.
    let accounts: Accounts
    /// The request it serves: what the audit log, the session's device and the triggers are told.
    let origin: RequestOrigin

    /// The use case over `accounts`, serving a request from `origin`.
    package init(accounts: Accounts, origin: RequestOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// How long a device stays known to an account after its last sign-in (about 13 months).
    static let knownDeviceLifetime: Int64 = 400 * 86_400_000

    /// Sends `notice` about `userId` (in the background) when its kind is on and mail is set up.
    func notify(_ notice: SecurityNotice, userId: String) {
        guard let mail = accounts.mail, isEnabled(notice) else { return }
        let now = accounts.objects.clock.now()
        accounts.background.start("security notice") {
            guard let user = try await accounts.directory.user(userId) else { return }
            switch notice {
            case .newDevice(let device):
                guard !Self.isAnonymous(user) else { return }
                await send(.newDevice, about: user, device: device, at: now, mail: mail)
            case .emailChanged(let old):
                let device = await accounts.devices.fields(installationId: nil, at: now, origin: origin)
                guard let new = user.fields["email"]?.stringValue, old.map(AccountKey.normalize) != AccountKey.normalize(new) else { return }
                // The old address learns where the account went (partly hidden); the new one
                // learns nothing about the account but that it exists.
                if let old {
                    try await rememberPreviousEmail(old, of: userId)
                    await send(.emailChanged, about: user, to: old, device: device, at: now, mail: mail, extra: ["newEmail": Self.masked(new)])
                }
                await send(.emailAdded, about: user, device: device, at: now, mail: mail)
            default:
                // Every other notice is about this request: its device, and the notice's own values.
                guard let (kind, extra) = Self.mail(for: notice) else { return }
                let device = await accounts.devices.fields(installationId: nil, at: now, origin: origin)
                await send(kind, about: user, device: device, at: now, mail: mail, extra: extra)
            }
        }
    }

    /// The template and values of a notice about the request that caused it; nil for the two
    /// with their own flow (a new device, an email change).
    static func mail(for notice: SecurityNotice) -> (MailTemplates.Kind, [String: String])? {
        switch notice {
        case .passwordChanged: (.passwordChanged, [:])
        case .providerLinked(let provider): (.providerLinked, ["provider": provider])
        case .providerUnlinked(let provider): (.providerUnlinked, ["provider": provider])
        case .secondFactorEnabled: (.secondFactorEnabled, [:])
        case .secondFactorRemoved: (.secondFactorRemoved, [:])
        case .recoveryCodeUsed(let left): (.recoveryCodeUsed, ["left": String(left)])
        case .passkeyAdded(let name): (.passkeyAdded, ["passkey": name])
        case .passkeyRemoved(let name): (.passkeyRemoved, ["passkey": name])
        case .newDevice, .emailChanged: nil
        }
    }

    private func isEnabled(_ notice: SecurityNotice) -> Bool {
        let settings = accounts.config.securityNotifications
        switch notice {
        case .passwordChanged: return settings.passwordChanged
        case .emailChanged: return settings.emailChanged
        case .newDevice: return settings.newDevice
        case .providerLinked(let name): return settings.providerLinked && name != "anonymous"
        case .providerUnlinked(let name): return settings.providerUnlinked && name != "anonymous"
        case .secondFactorEnabled, .secondFactorRemoved, .recoveryCodeUsed: return settings.secondFactor
        case .passkeyAdded, .passkeyRemoved: return settings.passkeys
        }
    }

    /// The records of the device a new session comes from, written in the session's own
    /// transaction (none without mail: no notice could go out). A device is its installation id,
    /// else the coarse network and the `User-Agent`; each record is kept in the database (shared
    /// by every node) under a digest, never the ids themselves, for `knownDeviceLifetime` after
    /// the device's last sign-in. The second record says the account has a device history at all.
    /// Devices are remembered even with notices off, so turning them on later doesn't report every
    /// old device as new.
    func deviceRecords(of userId: String, installationId: String?) -> [WriteGroup.OneTimeExchange] {
        guard accounts.mail != nil else { return [] }
        let device =
            installationId.map { "installation:" + $0.lowercased() }
            ?? "network:\(origin.clientIP.map(SessionDevices.coarseAddress) ?? "")|agent:\(String((origin.userAgent ?? "").prefix(512)))"
        let now = accounts.objects.clock.now().millisecondsSince1970
        return [
            "device:" + accounts.tokens.digest(userId + "\n" + device), "devices:" + accounts.tokens.digest(userId),
        ].map { WriteGroup.OneTimeExchange(key: $0, value: "1", expiresAt: now + Self.knownDeviceLifetime, now: now) }
    }

    /// Whether `deviceRecords`' exchange found the device new to the account: not known in the
    /// last `knownDeviceLifetime`, and not the first device ever recorded (the sign-up's, or the
    /// first sign-in after an upgrade).
    static func isNewDevice(_ previous: [String?]) -> Bool {
        previous.count == 2 && previous[0] == nil && previous[1] != nil
    }

    /// Renders and queues one notice to `address` (the user's email by default), in the user's
    /// language, within the per-user budget.
    private func send(
        _ kind: MailTemplates.Kind, about user: StoredObject, to address: String? = nil, device: [String: JSON], at now: ParseDate,
        mail: AccountMail, extra: [String: String] = [:]
    ) async {
        guard !Self.isAnonymous(user), let to = address ?? user.fields["email"]?.stringValue, !to.isEmpty else { return }
        guard
            accounts.noticeBudget.take(
                user.objectId, now: now.millisecondsSince1970, perHour: accounts.config.securityNotifications.maxPerUserPerHour)
        else {
            accounts.audit.logger.warning(
                "security notice dropped: hourly limit reached", metadata: ["kind": "\(kind.rawValue)", "user": "\(user.objectId)"])
            return
        }
        let language = mail.locale.choose(userLocale: user.fields["locale"]?.stringValue, acceptLanguage: nil)
        var values = [
            "appName": mail.appName, "username": user.fields["username"]?.stringValue ?? "",
            "time": Self.noticeTime(now), "device": Self.describe(device, language: language, userAgent: origin.userAgent),
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
        LinkedIdentities.providers(of: user) == ["anonymous"] && user.fields[InternalField.hashedPassword.rawValue] == nil
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
    static func describe(_ device: [String: JSON], language: String, userAgent: String?) -> String {
        let field = { (key: String) in device[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        let app = [field("appName"), field("appVersion")].compactMap { $0 }.joined(separator: " ")
        let details = [field("deviceType"), app.isEmpty ? nil : app].compactMap { $0 }.joined(separator: ", ")
        var text = field("deviceName").map { details.isEmpty ? $0 : "\($0) (\(details))" } ?? (details.isEmpty ? nil : details)
        if text == nil, let agent = userAgent, !agent.isEmpty { text = agent }
        let line = MailMessage.clean(text ?? (language == "ja" ? "不明" : "unknown"))
        return line.count > 160 ? String(line.prefix(159)) + "…" : line
    }

    /// How long the previous address can still ask for a reset (24 hours).
    static let previousEmailGrace: Int64 = 86_400_000

    /// Records that `address` was `userId`'s email until now (under a digest of the address).
    func rememberPreviousEmail(_ address: String, of userId: String) async throws {
        let expires = accounts.objects.clock.now().millisecondsSince1970 + Self.previousEmailGrace
        try await accounts.server.store.putOneTime(
            key: Self.previousEmailKey(address, accounts.tokens), value: "\(expires)\n\(userId)\n\(address)", expiresAt: expires)
    }

    /// The user whose email `address` was until less than a day ago, and that address; nil when
    /// there is none. Reading keeps the record (taken and put back with its own expiry).
    func previousOwner(of address: String) async throws -> (user: StoredObject, address: String)? {
        let key = Self.previousEmailKey(address, accounts.tokens)
        let now = accounts.objects.clock.now().millisecondsSince1970
        guard let text = try await accounts.server.store.takeOneTime(key: key, now: now) else { return nil }
        let parts = text.split(separator: "\n", maxSplits: 2).map(String.init)
        guard parts.count == 3, let expires = Int64(parts[0]) else { return nil }
        try await accounts.server.store.putOneTime(key: key, value: text, expiresAt: expires)
        // Only while the address is still someone's old one: not an account's current email.
        guard let user = try await accounts.directory.user(parts[1]),
            user.fields["email"]?.stringValue.map(AccountKey.normalize) != AccountKey.normalize(parts[2])
        else { return nil }
        return (user, parts[2])
    }

    static func previousEmailKey(_ address: String, _ tokens: any SessionTokenSource) -> String {
        "previous-email:" + tokens.digest(AccountKey.normalize(address))
    }
}
