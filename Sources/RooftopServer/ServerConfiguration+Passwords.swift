import RooftopCore
import RooftopServices

/// `accountLockout` as configured, member by member: the rule exists once both numbers do.
struct LockoutSettings: Sendable {
    var threshold: Int?
    /// Minutes, as configured.
    var duration: Int?
    var unlockOnPasswordReset = false
}

extension ServerConfiguration {
    /// `passwordPolicy`'s members: Parse's keys plus `maxLength` and `refuseCommonPasswords`.
    static let passwordPolicyMembers: [ConfigKey] = [
        .int("passwordPolicy.minLength", \.accounts.passwordPolicy.minLength, "shortest password, in characters (1–256)", in: 1...256),
        .int(
            "passwordPolicy.maxLength", \.accounts.passwordPolicy.maxLength,
            "longest password, in characters (64–4096); passwords over bcrypt's 72 bytes are pre-hashed, never cut", in: 64...4096),
        ConfigKey(
            "passwordPolicy.validatorPattern", .string, "a regular expression every new password must match",
            apply: { configuration, value in
                let pattern = try value.string()
                try value.require((try? Regex(pattern)) != nil, "must be a valid regular expression")
                configuration.accounts.passwordPolicy.pattern = pattern
            }, show: { $0.accounts.passwordPolicy.pattern.map(JSON.string) ?? .null }),
        .string(
            "passwordPolicy.validationError", \.accounts.passwordPolicy.patternMessage,
            "the error when a password does not match `validatorPattern`"),
        .bool("passwordPolicy.doNotAllowUsername", \.accounts.passwordPolicy.doNotAllowUsername, "refuse passwords containing the username"),
        .bool(
            "passwordPolicy.refuseCommonPasswords", \.accounts.passwordPolicy.refuseCommonPasswords,
            "refuse the 10,000 most common passwords"),
        .int(
            "passwordPolicy.maxPasswordHistory", \.accounts.passwordPolicy.maxPasswordHistory,
            "how many earlier passwords may not be reused (0–20)", in: 0...20),
        .optionalInt(
            "passwordPolicy.maxPasswordAge", \.accounts.passwordPolicy.maxPasswordAge, "days after which login asks for a reset (1–36500)",
            in: 1...36_500),
        // A reset link is as good as the password: at most a day.
        .int(
            "passwordPolicy.resetTokenValidityDuration", \.accounts.resetTokenValidityDuration,
            "seconds a password-reset link works (60–86400)", in: 60...86_400),
        .bool(
            "passwordPolicy.resetPasswordSuccessOnInvalidEmail", \.accounts.resetPasswordSuccessOnInvalidEmail,
            "`/requestPasswordReset` answers `{}` for unknown addresses too"),
    ]

    /// The shortest password allowed must be allowed by the longest.
    static func checkPasswordPolicy(_ configuration: inout ServerConfiguration, _ value: ConfigValue) throws {
        if configuration.accounts.passwordPolicy.minLength > configuration.accounts.passwordPolicy.maxLength {
            throw value.member("minLength", .null).error("must not exceed maxLength")
        }
    }

    /// `accountLockout`'s members (Parse's).
    static let lockoutMembers: [ConfigKey] = [
        .optionalInt("accountLockout.threshold", \.lockoutSettings.threshold, "failed logins that lock the account (1–999)", in: 1...999),
        .optionalInt(
            "accountLockout.duration", \.lockoutSettings.duration, "minutes the lock lasts (1–99999)", in: 1...99_999, unit: " minutes"),
        .bool(
            "accountLockout.unlockOnPasswordReset", \.lockoutSettings.unlockOnPasswordReset,
            "a password reset through the emailed link unlocks the account"),
    ]

    /// A lockout needs both numbers; once it has them it is the accounts' rule.
    static func checkLockout(_ configuration: inout ServerConfiguration, _ value: ConfigValue) throws {
        let settings = configuration.lockoutSettings
        guard let threshold = settings.threshold, let minutes = settings.duration else { throw value.error("needs threshold and duration") }
        configuration.accounts.lockout = .init(threshold: threshold, duration: minutes * 60, unlockOnPasswordReset: settings.unlockOnPasswordReset)
    }
}
