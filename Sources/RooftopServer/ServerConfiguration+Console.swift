import RooftopConsole
import RooftopCore
import RooftopHTTP

extension ServerConfiguration {
    /// `console`'s members.
    static let consoleMembers: [ConfigKey] = [
        .bool("console.enabled", \.console.enabled, "serve the console"),
        .string(
            "console.path", \.console.path, "where; not the API's mount path",
            valid: { $0.hasPrefix("/") && $0.count > 1 && !$0.hasSuffix("/") && !$0.contains("?") && !$0.contains("%") },
            problem: "must start with / and not end with /"),
        .addressList("console.allowedAddresses", \.console.allowedAddresses, "addresses or CIDR blocks it answers (empty: any); others get 403"),
        .int("console.idleTimeout", \.console.idleTimeout, "seconds without a request that end an admin session", in: 60...86_400, unit: " seconds"),
        .int(
            "console.absoluteTimeout", \.console.absoluteTimeout, "seconds after sign-in that end an admin session", in: 60...2_592_000,
            unit: " seconds"),
        .int("console.loginAttemptsPerMinute", \.console.loginAttemptsPerMinute, "sign-in attempts one address may make per minute", in: 1...1000),
        .int("console.lockoutThreshold", \.console.lockoutThreshold, "failed sign-ins that lock an admin", in: 1...999),
        .int("console.lockoutDuration", \.console.lockoutDuration, "seconds such a lock lasts", in: 1...86_400, unit: " seconds"),
    ]
}
