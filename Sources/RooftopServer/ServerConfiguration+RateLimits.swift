import RooftopCore
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
    var rateLimitRules: [RateLimiter.Rule] { (defaultRateLimits ? Self.defaultRateLimitRules : []) + rateLimits }

    /// `rateLimit`: Parse Server's array of `{requestPath, requestTimeWindow (ms), requestCount,
    /// requestMethods, zone, includeMasterKey, errorResponseMessage}`. Paths are exact or end in
    /// `/*`; `zone` is `ip` (default), `user`, `session`, `account` or `global`.
    static func parseRateLimits(_ value: JSON, source: String) throws -> [RateLimiter.Rule] {
        let items = value.arrayValue ?? value.stringValue.flatMap { try? JSONParser.parse($0) }?.arrayValue
        guard let items else { throw ConfigError("\(source): rateLimit must be an array of rules") }
        return try items.enumerated().map { index, item in
            let name = "\(source): rateLimit[\(index)]"
            guard let rule = item.objectValue else { throw ConfigError("\(name) must be an object") }
            for key in rule.keys where !rateLimitKeys.contains(key) { throw ConfigError("\(name): unknown key \(key)") }
            guard let path = rule["requestPath"]?.stringValue, path.hasPrefix("/") else {
                throw ConfigError("\(name).requestPath must be a path like /login or /classes/*")
            }
            guard let count = integer(rule["requestCount"] ?? .null), count > 0 else { throw ConfigError("\(name).requestCount must be positive") }
            guard let window = integer(rule["requestTimeWindow"] ?? .null), window > 0 else {
                throw ConfigError("\(name).requestTimeWindow must be a positive number of milliseconds")
            }
            var methods: Set<String> = []
            if let given = rule["requestMethods"] {
                let list = given.arrayValue?.compactMap(\.stringValue) ?? given.stringValue.map { [$0] } ?? []
                guard !list.isEmpty else { throw ConfigError("\(name).requestMethods must be a method or a list of them") }
                methods = Set(list.map { $0.uppercased() })
            }
            var zone = RateLimiter.Zone.ip
            if let text = rule["zone"]?.stringValue {
                guard let parsed = RateLimiter.Zone(rawValue: text) else {
                    throw ConfigError("\(name).zone must be one of \(RateLimiter.Zone.allCases.map(\.rawValue))")
                }
                zone = parsed
            }
            return RateLimiter.Rule(
                path: path, methods: methods, count: count, window: Int64(window), zone: zone,
                includeMasterKey: rule["includeMasterKey"] == .bool(true),
                message: rule["errorResponseMessage"]?.stringValue ?? "Too many requests.")
        }
    }

    /// The configured rules as `config print` shows them (Parse's shape).
    var rateLimitJSON: JSON {
        .array(
            rateLimits.map { rule in
                var out: [String: JSON] = [
                    "requestPath": .string(rule.path), "requestCount": .number(Double(rule.count)), "requestTimeWindow": .number(Double(rule.window)),
                    "zone": .string(rule.zone.rawValue), "includeMasterKey": .bool(rule.includeMasterKey),
                    "errorResponseMessage": .string(rule.message),
                ]
                if !rule.methods.isEmpty { out["requestMethods"] = .array(rule.methods.sorted().map(JSON.string)) }
                return .object(out)
            })
    }

    static let rateLimitKeys: Set<String> = [
        "requestPath", "requestTimeWindow", "requestCount", "requestMethods", "zone", "includeMasterKey", "errorResponseMessage",
    ]
}
