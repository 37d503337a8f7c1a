import RooftopConsole
import RooftopCore
import RooftopHTTP

extension ServerConfiguration {
    /// `console`'s members, what they set and what for.
    static let consoleMembers: [(key: String, description: String)] = [
        ("enabled", "serve the console (default true)"),
        ("path", "where (default `/console`); not the API's mount path"),
        ("allowedAddresses", "addresses or CIDR blocks it answers (default: any); others get 403"),
        ("idleTimeout", "seconds without a request that end an admin session (default 1800)"),
        ("absoluteTimeout", "seconds after sign-in that end an admin session (default 43200)"),
        ("loginAttemptsPerMinute", "sign-in attempts one address may make per minute (default 10)"),
        ("lockoutThreshold", "failed sign-ins that lock an admin (default 5)"),
        ("lockoutDuration", "seconds such a lock lasts (default 900)"),
    ]

    /// `console`: an object (or its JSON text from the environment).
    mutating func applyConsole(_ value: ConfigValue) throws {
        for (key, json) in try value.object() {
            let item = value.member(key, json)
            switch key {
            case "enabled": console.enabled = try item.bool()
            case "path":
                let path = try item.string()
                try item.require(
                    path.hasPrefix("/") && path.count > 1 && !path.hasSuffix("/") && !path.contains("?") && !path.contains("%"),
                    "must start with / and not end with /")
                console.path = path
            case "allowedAddresses":
                let entries = try item.list()
                for entry in entries where AddressRange(entry) == nil { throw item.error("\(entry) is not an IP address or CIDR block") }
                console.allowedAddresses = entries
            case "idleTimeout": console.idleTimeout = try item.int(in: 60...86_400, unit: " seconds")
            case "absoluteTimeout": console.absoluteTimeout = try item.int(in: 60...2_592_000, unit: " seconds")
            case "loginAttemptsPerMinute": console.loginAttemptsPerMinute = try item.int(in: 1...1000)
            case "lockoutThreshold": console.lockoutThreshold = try item.int(in: 1...999)
            case "lockoutDuration": console.lockoutDuration = try item.int(in: 1...86_400, unit: " seconds")
            default: throw value.unknownMember(key, known: Self.consoleMembers.map(\.key))
            }
        }
    }

    /// `console` as `config print` shows it.
    var consoleJSON: JSON {
        [
            "enabled": .bool(console.enabled), "path": .string(console.path), "allowedAddresses": .array(console.allowedAddresses.map(JSON.string)),
            "idleTimeout": .number(Double(console.idleTimeout)), "absoluteTimeout": .number(Double(console.absoluteTimeout)),
            "loginAttemptsPerMinute": .number(Double(console.loginAttemptsPerMinute)),
            "lockoutThreshold": .number(Double(console.lockoutThreshold)), "lockoutDuration": .number(Double(console.lockoutDuration)),
        ]
    }
}
