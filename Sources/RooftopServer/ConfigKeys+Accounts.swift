import RooftopCore
import RooftopHTTP
import RooftopServices

extension ServerConfiguration {
    /// Sign-up, login, sessions and the audit log.
    static let accountKeys: [ConfigKey] = [
        .int(
            "sessionLength", \.accounts.sessionLength, "session lifetime in seconds (one year)", valid: { $0 > 0 },
            problem: "must be a positive number of seconds"),
        .bool(
            "extendSessionOnUse", \.accounts.extendSessionOnUse,
            "a session used after half its lifetime is renewed for another `sessionLength`"),
        .bool("enforcePrivateUsers", \.accounts.enforcePrivateUsers, "new users readable by themselves only; `false` adds public read"),
        .bool(
            "enableAnonymousUsers", \.accounts.enableAnonymousUsers, "whether `authData.anonymous` may create and log in users (else 252)"
        ),
        ConfigKey(
            "auth", .object,
            "sign-in providers besides anonymous users: `apple` (`clientId`: bundle and service ids; for the browser flow "
                + "`teamId`, `keyId` and `privateKey` or `privateKeyPath`, the `.p8` key the client secret is signed with, hidden "
                + "by `config print`), `google` (`clientId`), "
                + "`facebook` (`appIds`, `appSecret`, hidden by `config print`), `github` (`clientId` and `clientSecret`: without them GitHub tokens are refused), and any other name for an OpenID "
                + "Connect provider (`issuer`, `clientId`); an unconfigured provider is 252; see [providers.md](providers.md)",
            defaultNote: "none", apply: { configuration, value in try configuration.applyAuth(value) }, show: { $0.authJSON }),
        ConfigKey(
            "authRedirectURIs", .list,
            "where the browser sign-in (`/auth/:provider/start`) may send people back to the app with its single-use code: exact "
                + "URIs (a custom scheme such as `com.example.app:/callback`, or `https`), and loopback `http://127.0.0.1/<path>` "
                + "entries, which match any port (RFC 8252); empty turns the browser sign-in off; see [providers.md](providers.md)",
            apply: { configuration, value in
                let uris = try value.list()
                try value.require(uris.allSatisfy(ServerConfiguration.isRedirectURI), "must be absolute URIs without a fragment")
                configuration.accounts.authRedirectURIs = uris
            }, show: { .array($0.accounts.authRedirectURIs.map(JSON.string)) }),
        .int(
            "anonymousUserTTL", \.accounts.anonymousUserTTL,
            "seconds of inactivity (not updated, no session opened) after which never-converted anonymous users are deleted with "
                + "their sessions, by the hourly cleanup; their objects stay; `0` is off",
            valid: { $0 >= 0 }, problem: "must be 0 (off) or a number of seconds"),
        .subTable(
            "passwordPolicy",
            "what a new password must be; other Parse keys (`validatorCallback`, `resetTokenReuseIfValid`) are refused at "
                + "start-up; see [security.md](security.md)",
            members: passwordPolicyMembers, unknown: .unsupported, check: checkPasswordPolicy),
        .subTable(
            "accountLockout",
            "`{\"threshold\":5,\"duration\":15,\"unlockOnPasswordReset\":true}`: `threshold` failed logins lock the account for "
                + "`duration` minutes; both are needed; see [security.md](security.md)",
            defaultNote: "off", members: lockoutMembers, check: checkLockout),
        .int(
            "maxSessionsPerUser", \.accounts.maxSessionsPerUser,
            "live sessions one user may hold; a login past it ends the user's oldest session (dropped from every node's cache); "
                + "`0` is no cap ([security.md](security.md))",
            valid: { $0 >= 0 }, problem: "must be 0 (no cap) or a number of sessions"),
        .int(
            "secondFactorMaxFailures", \.accounts.secondFactorMaxFailures,
            "wrong second-factor codes in a row after which codes are refused for 15 minutes, counted on every node "
                + "([users.md](users.md#a-second-factor))",
            valid: { (1...100).contains($0) }, problem: "must be between 1 and 100 (NIST SP 800-63B allows at most 100)"),
        .string(
            "secondFactorOnProviderSignIn", \.secondFactorOnProviderSignIn,
            "`required`: a sign-in through a provider (`authData`, the browser flow) needs the second factor's code too; "
                + "`provider`: the provider's own sign-in is enough ([users.md](users.md#a-second-factor))",
            valid: { ["required", "provider"].contains($0) }, problem: "must be required or provider"),
        ConfigKey(
            "secondFactorKeys", .list,
            "keys that seal second-factor secrets, newest first: the first seals, every one opens, and the master key always "
                + "opens too (and seals while this is empty); each at least 32 characters "
                + "([security.md](security.md#second-factor-secrets))",
            redaction: .value,
            apply: { configuration, value in
                let keys = try value.list()
                try value.require(keys.allSatisfy { $0.utf8.count >= 32 }, "must be keys of at least 32 characters each")
                configuration.accounts.secondFactorKeys = keys
            }, show: { .array($0.accounts.secondFactorKeys.map(JSON.string)) }),
        .bool(
            "revokeSessionOnPasswordReset", \.accounts.revokeSessionOnPasswordReset,
            "a reset through the emailed link ends every session of the user"),
        .bool("auditLog", \.accounts.auditLog, "authentication events go to the `_Audit` class ([security.md](security.md))"),
        .int(
            "auditLogRetentionDays", \.accounts.auditLogRetentionDays,
            "days events are kept (the hourly cleanup deletes older ones); `0` keeps them forever", valid: { $0 >= 0 },
            problem: "must be 0 (forever) or days"),
    ]

    /// Email verification, password reset and how mail leaves.
    static let mailKeys: [ConfigKey] = [
        .optionalString("appName", \.appName, "shown in mails and hosted pages", defaultNote: "the application id"),
        .bool(
            "verifyUserEmails", \.accounts.verifyUserEmails,
            "new and changed email addresses get a verification link ([email.md](email.md)); needs `publicServerURL` (in the "
                + "`development` profile it defaults to this server's own address)"),
        .bool(
            "preventLoginWithUnverifiedEmail", \.accounts.preventLoginWithUnverifiedEmail,
            "login answers 205 until the email is verified; sign-up then answers without `sessionToken`"),
        .bool(
            "preventSignupWithUnverifiedEmail", \.accounts.preventSignupWithUnverifiedEmail,
            "sign-up answers 205 (the user is created and mailed)"),
        ConfigKey(
            "emailVerifyTokenValidityDuration", .integer, "seconds a verification link works; `0` = until used (Parse's default)",
            apply: { configuration, value in
                let seconds = try value.int()
                try value.require(seconds >= 0, "must be 0 (never) or seconds")
                configuration.accounts.emailVerifyTokenValidityDuration = seconds == 0 ? nil : seconds
            }, show: { .number(Double($0.accounts.emailVerifyTokenValidityDuration ?? 0)) }),
        .bool(
            "emailVerifySuccessOnInvalidEmail", \.accounts.emailVerifySuccessOnInvalidEmail,
            "`/verificationEmailRequest` answers `{}` for unknown and verified addresses too"),
        .subTable(
            "securityNotifications",
            "mail to the user when the password or email changes, a device new to the account signs in, or a sign-in method is "
                + "linked or unlinked; `false` for none, `true` for all; sent only when mail is configured; see "
                + "[email.md](email.md#security-notices)",
            members: securityNotificationMembers, whole: applySecurityNotificationsSwitch),
        .subTable("mail", "how mail leaves; see [email.md](email.md)", members: mailMembers, check: checkMail),
    ]
}
