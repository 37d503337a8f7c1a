import RooftopCore
import RooftopServices

extension ServerConfiguration {
    /// `passwordPolicy` with Parse's keys (plus `maxLength` and `refuseCommonPasswords`). Keys we
    /// don't support (`validatorCallback`, `resetTokenReuseIfValid`) are refused rather than
    /// ignored, so a migrated configuration never silently loses a rule.
    mutating func applyPasswordPolicy(_ value: ConfigValue) throws {
        for (key, json) in try value.object() {
            let item = value.member(key, json)
            switch key {
            case "minLength": accounts.passwordPolicy.minLength = try item.int(in: 1...256)
            case "maxLength": accounts.passwordPolicy.maxLength = try item.int(in: 64...4096)
            case "validatorPattern":
                let pattern = try item.string()
                try item.require((try? Regex(pattern)) != nil, "must be a valid regular expression")
                accounts.passwordPolicy.pattern = pattern
            case "validationError": accounts.passwordPolicy.patternMessage = try item.string()
            case "doNotAllowUsername": accounts.passwordPolicy.doNotAllowUsername = try item.bool()
            case "refuseCommonPasswords": accounts.passwordPolicy.refuseCommonPasswords = try item.bool()
            case "maxPasswordHistory": accounts.passwordPolicy.maxPasswordHistory = try item.int(in: 0...20)
            case "maxPasswordAge": accounts.passwordPolicy.maxPasswordAge = try item.int(in: 1...36_500)
            case "resetTokenValidityDuration":
                // A reset link is as good as the password: at most a day.
                accounts.resetTokenValidityDuration = try item.int(in: 60...86_400)
            case "resetPasswordSuccessOnInvalidEmail": accounts.resetPasswordSuccessOnInvalidEmail = try item.bool()
            default: throw item.error("is not supported")
            }
        }
        if accounts.passwordPolicy.minLength > accounts.passwordPolicy.maxLength {
            throw value.member("minLength", .null).error("must not exceed maxLength")
        }
    }

    /// `accountLockout` (Parse): `threshold` failed logins (1–999) lock the account for
    /// `duration` minutes (1–99999); `unlockOnPasswordReset` lets the emailed reset unlock it.
    mutating func applyLockout(_ value: ConfigValue) throws {
        var threshold: Int?
        var minutes: Int?
        var unlock = false
        for (key, json) in try value.object() {
            let item = value.member(key, json)
            switch key {
            case "threshold": threshold = try item.int(in: 1...999)
            case "duration": minutes = try item.int(in: 1...99_999, unit: " minutes")
            case "unlockOnPasswordReset": unlock = try item.bool()
            default: throw value.unknownMember(key, known: ["threshold", "duration", "unlockOnPasswordReset"])
            }
        }
        guard let threshold, let minutes else { throw value.error("needs threshold and duration") }
        accounts.lockout = .init(threshold: threshold, duration: minutes * 60, unlockOnPasswordReset: unlock)
    }

    /// The lockout as `config print` shows it (minutes, as configured).
    var lockoutJSON: JSON {
        guard let lockout = accounts.lockout else { return .null }
        return [
            "threshold": .number(Double(lockout.threshold)), "duration": .number(Double(lockout.duration / 60)),
            "unlockOnPasswordReset": .bool(lockout.unlockOnPasswordReset),
        ]
    }

    /// The policy as `config print` shows it.
    var passwordPolicyJSON: JSON {
        let policy = accounts.passwordPolicy
        var out: [String: JSON] = [
            "minLength": .number(Double(policy.minLength)), "maxLength": .number(Double(policy.maxLength)),
            "doNotAllowUsername": .bool(policy.doNotAllowUsername), "refuseCommonPasswords": .bool(policy.refuseCommonPasswords),
            "maxPasswordHistory": .number(Double(policy.maxPasswordHistory)),
            "resetTokenValidityDuration": .number(Double(accounts.resetTokenValidityDuration)),
            "resetPasswordSuccessOnInvalidEmail": .bool(accounts.resetPasswordSuccessOnInvalidEmail),
        ]
        if let pattern = policy.pattern {
            out["validatorPattern"] = .string(pattern)
            out["validationError"] = .string(policy.patternMessage)
        }
        if let age = policy.maxPasswordAge { out["maxPasswordAge"] = .number(Double(age)) }
        return .object(out)
    }
}
