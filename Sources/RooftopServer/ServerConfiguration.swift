import Foundation
import Logging
import RooftopCore
import RooftopHTTP
import RooftopServices

/// The server's typed configuration, layered: defaults < `rooftop.json` < environment < flags.
///
/// Keys keep Parse Server's names (`appId`, `masterKey`, `mountPath`, …) in the file, and in
/// the environment both as `ROOFTOP_<UPPER_SNAKE>` and `PARSE_SERVER_<UPPER_SNAKE>`.
struct ServerConfiguration: Sendable {
    var host = "127.0.0.1"
    var port = 1337
    var dataDir = "./rooftop-data"
    /// PostgreSQL instead of the embedded SQLite file (`postgres://…`).
    var databaseURI: String?
    var databasePoolSize = 20
    var appId: String?
    var masterKey: String?
    var clientKey: String?
    var restAPIKey: String?
    var javascriptKey: String?
    var dotNetKey: String?
    var masterKeyIps = ["127.0.0.1", "::1"]
    var mountPath = "/parse"
    var serverURL: String?
    var profile = "development"
    var allowClientClassCreation: Bool?
    var allowCustomObjectId = false
    var objectIdSize = 10
    var defaultLimit = 100
    var maxLimit = 1000
    var maxBodySize = 1 << 20
    var allowOrigin = "*"
    var publicServerURL: String?
    var batchRequestLimit = 50
    var sessionLength = 31_536_000
    var enforcePrivateUsers = true
    var enableAnonymousUsers = true
    var defaultACL: [String: DefaultACL] = [:]
    var passwordPolicy = PasswordPolicy()
    var anonymousUserTTL = 0
    var extendSessionOnUse = false
    var logLevel = "info"
    var appName: String?
    var verifyUserEmails = false
    var preventLoginWithUnverifiedEmail = false
    var preventSignupWithUnverifiedEmail = false
    var emailVerifyTokenValidityDuration = 86_400
    var emailVerifySuccessOnInvalidEmail = true
    var resetTokenValidityDuration = 3600
    var resetPasswordSuccessOnInvalidEmail = true
    var revokeSessionOnPasswordReset = true
    var lockout: AccountsConfiguration.Lockout?
    var rateLimits: [RateLimiter.Rule] = []
    var defaultRateLimits = true
    var trustProxy: [String] = []
    var auditLog = true
    var auditLogRetentionDays = 90
    /// Seconds a stop (SIGTERM/SIGINT) waits for in-flight requests before closing their
    /// connections; 0 waits as long as they take.
    var gracefulShutdownTimeout = 30
    var mail = MailSettings()
    var queryLimits = QueryLimits()

    /// Every key, for `config print` and the docs.
    static let keys = [
        "host", "port", "dataDir", "databaseURI", "databasePoolSize", "appId", "masterKey", "clientKey", "restAPIKey", "javascriptKey", "dotNetKey",
        "masterKeyIps",
        "mountPath", "serverURL", "profile", "allowClientClassCreation", "allowCustomObjectId", "objectIdSize", "defaultLimit",
        "maxLimit", "maxBodySize", "allowOrigin", "publicServerURL", "requestComplexity", "sessionLength", "enforcePrivateUsers",
        "enableAnonymousUsers", "defaultACL", "passwordPolicy", "anonymousUserTTL", "extendSessionOnUse",
        "logLevel", "verbose", "appName", "verifyUserEmails", "preventLoginWithUnverifiedEmail", "preventSignupWithUnverifiedEmail",
        "emailVerifyTokenValidityDuration", "emailVerifySuccessOnInvalidEmail", "mail", "revokeSessionOnPasswordReset", "accountLockout",
        "rateLimit", "defaultRateLimits", "trustProxy", "auditLog", "auditLogRetentionDays",
        "gracefulShutdownTimeout",
    ]

    /// Parse Server's log levels; `verbose` (and below) adds a line per request.
    static let logLevels = ["error", "warn", "info", "verbose", "debug", "silly"]

    /// Keys inside `requestComplexity` (Parse Server 9 names, plus Rooftop's own query limits).
    static let complexityKeys = ["batchRequestLimit", "includeLimit", "subqueryLimit", "inValuesLimit", "conditionLimit", "regexLengthLimit"]

    /// `appId` → `APP_ID`, `restAPIKey` → `REST_API_KEY`.
    static func upperSnake(_ key: String) -> String {
        var out = ""
        let chars = Array(key)
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0, chars[i - 1].isLowercase || (i + 1 < chars.count && chars[i + 1].isLowercase) { out.append("_") }
            out.append(contentsOf: c.uppercased())
        }
        return out
    }

    /// Applies `values` (from a file, the environment or flags) on top of this configuration.
    mutating func apply(_ values: [String: JSON], source: String) throws {
        for (key, value) in values {
            func string() throws -> String {
                if let s = value.stringValue { return s }
                if let n = value.intValue { return String(n) }
                throw ConfigError("\(source): \(key) must be a string")
            }
            func int() throws -> Int {
                guard let n = Self.integer(value) else { throw ConfigError("\(source): \(key) must be an integer") }
                return n
            }
            func bool() throws -> Bool {
                if case .bool(let b) = value { return b }
                if let s = value.stringValue, ["true", "1", "false", "0"].contains(s) { return s == "true" || s == "1" }
                throw ConfigError("\(source): \(key) must be true or false")
            }
            switch key {
            case "host": host = try string()
            case "port": port = try int()
            case "dataDir": dataDir = try string()
            case "databaseURI", "databaseURL":
                let uri = try string()
                guard uri.hasPrefix("postgres://") || uri.hasPrefix("postgresql://") else {
                    throw ConfigError("\(source): databaseURI must be a postgres:// URL (leave it out for the embedded SQLite)")
                }
                databaseURI = uri
            case "databasePoolSize":
                databasePoolSize = try int()
                guard databasePoolSize > 0 else { throw ConfigError("\(source): databasePoolSize must be positive") }
            case "appId", "applicationId": appId = try string()
            case "masterKey": masterKey = try string()
            case "clientKey": clientKey = try string()
            case "restAPIKey": restAPIKey = try string()
            case "javascriptKey": javascriptKey = try string()
            case "dotNetKey": dotNetKey = try string()
            case "masterKeyIps":
                if let items = value.arrayValue {
                    masterKeyIps = items.compactMap(\.stringValue)
                } else {
                    masterKeyIps = try string().split(separator: ",").map(String.init)
                }
            case "mountPath": mountPath = try string()
            case "serverURL", "url": serverURL = try string()
            case "profile": profile = try string()
            case "allowClientClassCreation": allowClientClassCreation = try bool()
            case "allowCustomObjectId": allowCustomObjectId = try bool()
            case "objectIdSize": objectIdSize = try int()
            case "defaultLimit": defaultLimit = try int()
            case "maxLimit": maxLimit = try int()
            case "maxBodySize": maxBodySize = try int()
            case "allowOrigin": allowOrigin = try string()
            case "publicServerURL": publicServerURL = try string()
            case "requestComplexity": try applyComplexity(value, source: source)
            case "sessionLength": sessionLength = try int()
            case "enforcePrivateUsers": enforcePrivateUsers = try bool()
            case "enableAnonymousUsers": enableAnonymousUsers = try bool()
            case "defaultACL": defaultACL = try Self.parseDefaultACL(value, source: source)
            case "passwordPolicy": try applyPasswordPolicy(value, source: source)
            case "anonymousUserTTL": anonymousUserTTL = try int()
            case "extendSessionOnUse": extendSessionOnUse = try bool()
            case "logLevel":
                logLevel = try string()
                guard Self.logLevels.contains(logLevel) else { throw ConfigError("\(source): logLevel must be one of \(Self.logLevels)") }
            case "verbose": if try bool() { logLevel = "verbose" }
            case "appName": appName = try string()
            case "verifyUserEmails": verifyUserEmails = try bool()
            case "preventLoginWithUnverifiedEmail": preventLoginWithUnverifiedEmail = try bool()
            case "preventSignupWithUnverifiedEmail": preventSignupWithUnverifiedEmail = try bool()
            case "emailVerifyTokenValidityDuration": emailVerifyTokenValidityDuration = try int()
            case "emailVerifySuccessOnInvalidEmail": emailVerifySuccessOnInvalidEmail = try bool()
            case "mail": try mail.apply(value, source: source)
            case "revokeSessionOnPasswordReset": revokeSessionOnPasswordReset = try bool()
            case "accountLockout": try applyLockout(value, source: source)
            case "rateLimit": rateLimits = try Self.parseRateLimits(value, source: source)
            case "defaultRateLimits": defaultRateLimits = try bool()
            case "auditLog": auditLog = try bool()
            case "auditLogRetentionDays":
                auditLogRetentionDays = try int()
                guard auditLogRetentionDays >= 0 else { throw ConfigError("\(source): auditLogRetentionDays must be 0 (forever) or days") }
            case "gracefulShutdownTimeout":
                gracefulShutdownTimeout = try int()
                guard gracefulShutdownTimeout >= 0 else { throw ConfigError("\(source): gracefulShutdownTimeout must be 0 (wait) or seconds") }
            case "trustProxy":
                if let items = value.arrayValue {
                    trustProxy = items.compactMap(\.stringValue)
                } else {
                    trustProxy = try string().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                }
            default: throw ConfigError("\(source): unknown configuration key \(key)")
            }
        }
        guard profile == "development" || profile == "production" else { throw ConfigError("profile must be development or production") }
        guard mountPath.hasPrefix("/"), !mountPath.hasSuffix("/") || mountPath == "/" else {
            throw ConfigError("mountPath must start with / and not end with /")
        }
        guard (1...65535).contains(port) || port == 0 else { throw ConfigError("port must be between 1 and 65535") }
        guard anonymousUserTTL >= 0 else { throw ConfigError("anonymousUserTTL must be 0 (off) or a number of seconds") }
        guard sessionLength > 0 else { throw ConfigError("sessionLength must be a positive number of seconds") }
        guard (6...64).contains(objectIdSize) else { throw ConfigError("objectIdSize must be between 6 and 64") }
        guard emailVerifyTokenValidityDuration >= 0 else { throw ConfigError("emailVerifyTokenValidityDuration must be 0 (never) or seconds") }
    }

    /// A nested option: an object in the file, its JSON text in the environment.
    static func nestedObject(_ value: JSON) -> [String: JSON]? {
        value.objectValue ?? value.stringValue.flatMap { try? JSONParser.parse($0) }?.objectValue
    }

    /// An integer given as a number (file) or as text (environment, flags).
    static func integer(_ value: JSON) -> Int? {
        value.intValue ?? value.stringValue.flatMap { Int($0) }
    }

    /// `defaultACL`: `"public"`/`"owner"` for every class, or `{"Todo":"owner","*":"public"}`
    /// (an object, or its JSON text from the environment).
    static func parseDefaultACL(_ value: JSON, source: String) throws -> [String: DefaultACL] {
        func policy(_ text: String?) throws -> DefaultACL {
            guard let text, let policy = DefaultACL(rawValue: text) else { throw ConfigError("\(source): defaultACL values are public or owner") }
            return policy
        }
        if let text = value.stringValue, DefaultACL(rawValue: text) != nil { return ["*": try policy(text)] }
        let object = Self.nestedObject(value)
        guard let object else { throw ConfigError("\(source): defaultACL must be public, owner or an object of them") }
        var result: [String: DefaultACL] = [:]
        for (name, item) in object {
            guard name == "*" || ClassName.isValid(name) else { throw ConfigError("\(source): defaultACL: invalid class name \(name)") }
            result[name] = try policy(item.stringValue)
        }
        return result
    }

    /// `requestComplexity`: an object, or its JSON text (from the environment).
    private mutating func applyComplexity(_ value: JSON, source: String) throws {
        let object = Self.nestedObject(value)
        guard let object else { throw ConfigError("\(source): requestComplexity must be an object") }
        for (key, item) in object {
            guard let n = Self.integer(item), n > 0 else {
                throw ConfigError("\(source): requestComplexity.\(key) must be a positive integer")
            }
            switch key {
            case "batchRequestLimit": batchRequestLimit = n
            case "includeLimit": queryLimits.maxIncludes = n
            case "subqueryLimit": queryLimits.maxDepth = n
            case "inValuesLimit": queryLimits.maxInValues = n
            case "conditionLimit": queryLimits.maxConditions = n
            case "regexLengthLimit": queryLimits.maxRegexLength = n
            default: throw ConfigError("\(source): unknown key requestComplexity.\(key)")
            }
        }
    }

    /// Values from `ROOFTOP_*` and `PARSE_SERVER_*` variables (ROOFTOP_ wins).
    static func environmentValues(_ env: [String: String]) -> [String: JSON] {
        var values: [String: JSON] = [:]
        let aliases = ["APPLICATION_ID": "appId", "URL": "serverURL", "DATABASE_URL": "databaseURI"]
        for prefix in ["PARSE_SERVER_", "ROOFTOP_"] {
            for key in keys {
                if let value = env[prefix + upperSnake(key)] { values[key] = .string(value) }
            }
            for (name, key) in aliases {
                if let value = env[prefix + name] { values[key] = .string(value) }
            }
        }
        return values
    }

    var services: ServicesConfiguration {
        var s = ServicesConfiguration()
        s.allowClientClassCreation = allowClientClassCreation ?? (profile == "development")
        s.allowCustomObjectId = allowCustomObjectId
        s.objectIdSize = objectIdSize
        s.defaultLimit = defaultLimit
        s.maxLimit = maxLimit
        s.queryLimits = queryLimits
        s.defaultACL = defaultACL
        return s
    }

    var accounts: AccountsConfiguration {
        var a = AccountsConfiguration()
        a.sessionLength = sessionLength
        a.enforcePrivateUsers = enforcePrivateUsers
        a.enableAnonymousUsers = enableAnonymousUsers
        a.passwordPolicy = passwordPolicy
        a.anonymousUserTTL = anonymousUserTTL
        a.extendSessionOnUse = extendSessionOnUse
        a.verifyUserEmails = verifyUserEmails
        a.preventLoginWithUnverifiedEmail = preventLoginWithUnverifiedEmail
        a.preventSignupWithUnverifiedEmail = preventSignupWithUnverifiedEmail
        a.emailVerifyTokenValidityDuration = emailVerifyTokenValidityDuration == 0 ? nil : emailVerifyTokenValidityDuration
        a.emailVerifySuccessOnInvalidEmail = emailVerifySuccessOnInvalidEmail
        a.resetTokenValidityDuration = resetTokenValidityDuration
        a.resetPasswordSuccessOnInvalidEmail = resetPasswordSuccessOnInvalidEmail
        a.revokeSessionOnPasswordReset = revokeSessionOnPasswordReset
        a.lockout = lockout
        a.auditLog = auditLog
        a.auditLogRetentionDays = auditLogRetentionDays
        return a
    }

    func http(appId: String, masterKey: String) -> HTTPConfiguration {
        var h = HTTPConfiguration(appId: appId, masterKey: masterKey)
        h.clientKey = clientKey
        h.restAPIKey = restAPIKey
        h.javascriptKey = javascriptKey
        h.dotNetKey = dotNetKey
        h.masterKeyIps = masterKeyIps
        h.mountPath = mountPath
        h.maxBodySize = maxBodySize
        h.allowOrigin = allowOrigin
        h.batchRequestLimit = batchRequestLimit
        h.rateLimits = rateLimitRules
        h.trustedProxies = trustProxy
        h.extraBatchPathPrefixes = [serverURL, publicServerURL].compactMap { url in
            guard let path = url.flatMap({ URLComponents(string: $0)?.path }), path.hasPrefix("/"), path != mountPath else { return nil }
            return path.hasSuffix("/") ? String(path.dropLast()) : path
        }
        return h
    }

    /// The effective configuration with secrets redacted.
    var redacted: JSON {
        func secret(_ s: String?) -> JSON { s == nil ? .null : "<redacted>" }
        return [
            "host": .string(host), "port": .number(Double(port)), "dataDir": .string(dataDir),
            "databaseURI": databaseURI.map { .string(Self.redactedURL($0)) } ?? .null, "databasePoolSize": .number(Double(databasePoolSize)),
            "appId": appId.map(JSON.string) ?? .null,
            "masterKey": secret(masterKey), "clientKey": secret(clientKey), "restAPIKey": secret(restAPIKey),
            "javascriptKey": secret(javascriptKey), "dotNetKey": secret(dotNetKey), "masterKeyIps": .array(masterKeyIps.map(JSON.string)),
            "mountPath": .string(mountPath), "serverURL": serverURL.map(JSON.string) ?? .null, "profile": .string(profile),
            "allowClientClassCreation": .bool(services.allowClientClassCreation), "allowCustomObjectId": .bool(allowCustomObjectId),
            "objectIdSize": .number(Double(objectIdSize)), "defaultLimit": .number(Double(defaultLimit)), "maxLimit": .number(Double(maxLimit)),
            "maxBodySize": .number(Double(maxBodySize)), "allowOrigin": .string(allowOrigin),
            "publicServerURL": publicServerURL.map(JSON.string) ?? .null,
            "sessionLength": .number(Double(sessionLength)), "enforcePrivateUsers": .bool(enforcePrivateUsers),
            "enableAnonymousUsers": .bool(enableAnonymousUsers),
            "defaultACL": .object(defaultACL.mapValues { .string($0.rawValue) }),
            "passwordPolicy": passwordPolicyJSON,
            "revokeSessionOnPasswordReset": .bool(revokeSessionOnPasswordReset),
            "rateLimit": rateLimitJSON, "defaultRateLimits": .bool(defaultRateLimits),
            "trustProxy": .array(trustProxy.map(JSON.string)), "auditLog": .bool(auditLog),
            "auditLogRetentionDays": .number(Double(auditLogRetentionDays)),
            "gracefulShutdownTimeout": .number(Double(gracefulShutdownTimeout)),
            "accountLockout": lockout.map {
                [
                    "threshold": .number(Double($0.threshold)), "duration": .number(Double($0.duration / 60)),
                    "unlockOnPasswordReset": .bool($0.unlockOnPasswordReset),
                ]
            } ?? .null,
            "anonymousUserTTL": .number(Double(anonymousUserTTL)), "extendSessionOnUse": .bool(extendSessionOnUse),
            "logLevel": .string(logLevel), "appName": appName.map(JSON.string) ?? .null, "verifyUserEmails": .bool(verifyUserEmails),
            "preventLoginWithUnverifiedEmail": .bool(preventLoginWithUnverifiedEmail),
            "preventSignupWithUnverifiedEmail": .bool(preventSignupWithUnverifiedEmail),
            "emailVerifyTokenValidityDuration": .number(Double(emailVerifyTokenValidityDuration)),
            "emailVerifySuccessOnInvalidEmail": .bool(emailVerifySuccessOnInvalidEmail), "mail": mail.redacted,
            "requestComplexity": [
                "batchRequestLimit": .number(Double(batchRequestLimit)), "includeLimit": .number(Double(queryLimits.maxIncludes)),
                "subqueryLimit": .number(Double(queryLimits.maxDepth)), "inValuesLimit": .number(Double(queryLimits.maxInValues)),
                "conditionLimit": .number(Double(queryLimits.maxConditions)), "regexLengthLimit": .number(Double(queryLimits.maxRegexLength)),
            ],
        ]
    }
}

extension ServerConfiguration {
    /// `url` with its password replaced.
    static func redactedURL(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "<redacted>"
        return components.string ?? "<redacted>"
    }
}

/// A configuration problem, reported to the operator.
struct ConfigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ServerConfiguration {
    /// `logLevel` in swift-log's terms: Parse's `verbose` is `.debug`, `silly` is `.trace`.
    var swiftLogLevel: Logger.Level {
        switch logLevel {
        case "error": .error
        case "warn": .warning
        case "verbose", "debug": .debug
        case "silly": .trace
        default: .info
        }
    }
}
