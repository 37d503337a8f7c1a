import RooftopCore
import RooftopServices

extension ServerConfiguration {
    /// `passwordPolicy` with Parse's keys (plus `maxLength` and `refuseCommonPasswords`). Keys we
    /// don't support (`validatorCallback`, `resetTokenReuseIfValid`) are refused rather than
    /// ignored, so a migrated configuration never silently loses a rule.
    mutating func applyPasswordPolicy(_ value: JSON, source: String) throws {
        guard let object = Self.nestedObject(value) else { throw ConfigError("\(source): passwordPolicy must be an object") }
        func number(_ key: String, _ item: JSON, in range: ClosedRange<Int>) throws -> Int {
            guard let n = Self.integer(item), range.contains(n) else {
                throw ConfigError("\(source): passwordPolicy.\(key) must be between \(range.lowerBound) and \(range.upperBound)")
            }
            return n
        }
        func flag(_ key: String, _ item: JSON) throws -> Bool {
            if case .bool(let b) = item { return b }
            if let text = item.stringValue, ["true", "false"].contains(text) { return text == "true" }
            throw ConfigError("\(source): passwordPolicy.\(key) must be true or false")
        }
        for (key, item) in object {
            switch key {
            case "minLength": passwordPolicy.minLength = try number(key, item, in: 1...256)
            case "maxLength": passwordPolicy.maxLength = try number(key, item, in: 64...4096)
            case "validatorPattern":
                guard let pattern = item.stringValue, (try? Regex(pattern)) != nil else {
                    throw ConfigError("\(source): passwordPolicy.validatorPattern must be a valid regular expression")
                }
                passwordPolicy.pattern = pattern
            case "validationError":
                guard let message = item.stringValue else { throw ConfigError("\(source): passwordPolicy.validationError must be a string") }
                passwordPolicy.patternMessage = message
            case "doNotAllowUsername": passwordPolicy.doNotAllowUsername = try flag(key, item)
            case "refuseCommonPasswords": passwordPolicy.refuseCommonPasswords = try flag(key, item)
            case "maxPasswordHistory": passwordPolicy.maxPasswordHistory = try number(key, item, in: 0...20)
            case "maxPasswordAge": passwordPolicy.maxPasswordAge = try number(key, item, in: 1...36_500)
            case "resetTokenValidityDuration":
                // A reset link is as good as the password: at most a day.
                resetTokenValidityDuration = try number(key, item, in: 60...86_400)
            case "resetPasswordSuccessOnInvalidEmail": resetPasswordSuccessOnInvalidEmail = try flag(key, item)
            default: throw ConfigError("\(source): passwordPolicy.\(key) is not supported")
            }
        }
        guard passwordPolicy.minLength <= passwordPolicy.maxLength else {
            throw ConfigError("\(source): passwordPolicy.minLength must not exceed maxLength")
        }
    }

    /// `accountLockout` (Parse): `threshold` failed logins (1–999) lock the account for
    /// `duration` minutes (1–99999); `unlockOnPasswordReset` lets the emailed reset unlock it.
    mutating func applyLockout(_ value: JSON, source: String) throws {
        guard let object = Self.nestedObject(value) else { throw ConfigError("\(source): accountLockout must be an object") }
        var threshold: Int?
        var minutes: Int?
        var unlock = false
        for (key, item) in object {
            switch key {
            case "threshold":
                guard let n = Self.integer(item), (1...999).contains(n) else {
                    throw ConfigError("\(source): accountLockout.threshold must be between 1 and 999")
                }
                threshold = n
            case "duration":
                guard let n = Self.integer(item), (1...99_999).contains(n) else {
                    throw ConfigError("\(source): accountLockout.duration must be between 1 and 99999 minutes")
                }
                minutes = n
            case "unlockOnPasswordReset":
                guard case .bool(let flag) = item else { throw ConfigError("\(source): accountLockout.unlockOnPasswordReset must be true or false") }
                unlock = flag
            default: throw ConfigError("\(source): unknown key accountLockout.\(key)")
            }
        }
        guard let threshold, let minutes else { throw ConfigError("\(source): accountLockout needs threshold and duration") }
        lockout = .init(threshold: threshold, duration: minutes * 60, unlockOnPasswordReset: unlock)
    }

    /// The policy as `config print` shows it.
    var passwordPolicyJSON: JSON {
        var out: [String: JSON] = [
            "minLength": .number(Double(passwordPolicy.minLength)), "maxLength": .number(Double(passwordPolicy.maxLength)),
            "doNotAllowUsername": .bool(passwordPolicy.doNotAllowUsername), "refuseCommonPasswords": .bool(passwordPolicy.refuseCommonPasswords),
            "maxPasswordHistory": .number(Double(passwordPolicy.maxPasswordHistory)),
            "resetTokenValidityDuration": .number(Double(resetTokenValidityDuration)),
            "resetPasswordSuccessOnInvalidEmail": .bool(resetPasswordSuccessOnInvalidEmail),
        ]
        if let pattern = passwordPolicy.pattern {
            out["validatorPattern"] = .string(pattern)
            out["validationError"] = .string(passwordPolicy.patternMessage)
        }
        if let age = passwordPolicy.maxPasswordAge { out["maxPasswordAge"] = .number(Double(age)) }
        return .object(out)
    }
}
