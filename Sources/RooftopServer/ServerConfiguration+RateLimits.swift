import RooftopCore
import RooftopHTTP
import RooftopServices

extension ServerConfiguration {
    /// Limits on the routes an attacker guesses through, on unless `defaultRateLimits: false`:
    /// per client IP and, where a request names an account, per account whatever the IP.
    static let defaultRateLimitRules: [RateLimiter.Rule] = [
        .init(path: "/login", count: 20, window: 60_000, zone: .ip),
        .init(path: "/login", count: 10, window: 60_000, zone: .account),
        .init(path: "/verifyPassword", count: 20, window: 60_000, zone: .ip),
        .init(path: "/verifyPassword", count: 10, window: 60_000, zone: .account),
        .init(path: "/users", methods: ["POST"], count: 10, window: 60_000, zone: .ip),
        .init(path: "/requestPasswordReset", count: 5, window: 60_000, zone: .ip),
        .init(path: "/requestPasswordReset", count: 3, window: 600_000, zone: .account),
        .init(path: "/verificationEmailRequest", count: 5, window: 60_000, zone: .ip),
        .init(path: "/verificationEmailRequest", count: 3, window: 600_000, zone: .account),
        .init(path: "/apps/*", methods: ["POST"], count: 10, window: 60_000, zone: .ip),
    ]

    /// The rules in force: the defaults (unless off), then the configured ones.
    var rateLimitRules: [RateLimiter.Rule] { (defaultRateLimits ? Self.defaultRateLimitRules : []) + httpSettings.rateLimits }

    /// `rateLimit`: Parse Server's array of `{requestPath, requestTimeWindow (ms), requestCount,
    /// requestMethods, zone, includeMasterKey, errorResponseMessage}`. Paths are exact or end in
    /// `/*`; `zone` is `ip` (default), `user`, `session`, `account` or `global`.
    static func parseRateLimits(_ value: ConfigValue) throws -> [RateLimiter.Rule] {
        try value.array().enumerated().map { index, json in
            let item = ConfigValue(json, source: value.source, key: "\(value.key)[\(index)]")
            let rule = try item.object()
            for key in rule.keys where !rateLimitKeys.contains(key) {
                throw ConfigError("\(item.source): \(item.key): unknown key \(key)\(Suggestion.hint(for: key, among: rateLimitKeys))")
            }
            func member(_ key: String) -> ConfigValue? { rule[key].map { item.member(key, $0) } }
            func required(_ key: String) -> ConfigValue { member(key) ?? item.member(key, .null) }
            let pathValue = required("requestPath")
            let path = pathValue.json.isNull ? "" : try pathValue.string()
            try pathValue.require(path.hasPrefix("/"), "must be a path like /login or /classes/*")
            let countValue = required("requestCount")
            let count = countValue.json.isNull ? 0 : try countValue.int()
            try countValue.require(count > 0, "must be positive")
            let windowValue = required("requestTimeWindow")
            let window = windowValue.json.isNull ? 0 : try windowValue.int()
            try windowValue.require(window > 0, "must be a positive number of milliseconds")
            var methods: Set<String> = []
            if let given = member("requestMethods") {
                let list = try given.list()
                try given.require(!list.isEmpty, "must be a method or a list of them")
                methods = Set(list.map { $0.uppercased() })
            }
            var zone = RateLimiter.Zone.ip
            if let given = member("zone") {
                let parsed = RateLimiter.Zone(rawValue: try given.string())
                try given.require(parsed != nil, "must be one of \(RateLimiter.Zone.allCases.map(\.rawValue))")
                zone = parsed ?? .ip
            }
            return RateLimiter.Rule(
                path: path, methods: methods, count: count, window: Int64(window), zone: zone,
                includeMasterKey: try member("includeMasterKey")?.bool() ?? false,
                message: try member("errorResponseMessage")?.string() ?? "Too many requests.")
        }
    }

    /// The configured rules as `config print` shows them (Parse's shape).
    var rateLimitJSON: JSON {
        .array(
            httpSettings.rateLimits.map { rule in
                var out: [String: JSON] = [
                    "requestPath": .string(rule.path), "requestCount": .number(Double(rule.count)), "requestTimeWindow": .number(Double(rule.window)),
                    "zone": .string(rule.zone.rawValue), "includeMasterKey": .bool(rule.includeMasterKey),
                    "errorResponseMessage": .string(rule.message),
                ]
                if !rule.methods.isEmpty { out["requestMethods"] = .array(rule.methods.sorted().map(JSON.string)) }
                return .object(out)
            })
    }

    static let rateLimitKeys = [
        "requestPath", "requestTimeWindow", "requestCount", "requestMethods", "zone", "includeMasterKey", "errorResponseMessage",
    ]
}
