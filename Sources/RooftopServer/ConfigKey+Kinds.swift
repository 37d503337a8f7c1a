import RooftopCore
import RooftopHTTP

/// Definitions of the plain keys: a value stored in one field, checked on its own.
extension ConfigKey {
    static func string(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, String> & Sendable, _ description: String, aliases: [String] = [],
        flag: String? = nil, valid: @escaping @Sendable (String) -> Bool = { _ in true }, problem: String = ""
    ) -> ConfigKey {
        ConfigKey(
            name, .string, description, aliases: aliases, flag: flag,
            apply: { configuration, value in
                let text = try value.string()
                try value.require(valid(text), problem)
                configuration[keyPath: field] = text
            }, show: { .string($0[keyPath: field]) })
    }

    static func optionalString(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, String?> & Sendable, _ description: String, aliases: [String] = [],
        secret: Bool = false, defaultNote: String? = nil
    ) -> ConfigKey {
        ConfigKey(
            name, .string, description, aliases: aliases, redaction: secret ? .value : .none, defaultNote: defaultNote,
            apply: { configuration, value in configuration[keyPath: field] = try value.string() },
            show: { $0[keyPath: field].map(JSON.string) ?? .null })
    }

    static func int(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, Int> & Sendable, _ description: String,
        valid: @escaping @Sendable (Int) -> Bool = { _ in true }, problem: String = "", flag: String? = nil
    ) -> ConfigKey {
        ConfigKey(
            name, .integer, description, flag: flag,
            apply: { configuration, value in
                let n = try value.int()
                try value.require(valid(n), problem)
                configuration[keyPath: field] = n
            }, show: { .number(Double($0[keyPath: field])) })
    }

    /// An integer in `range` (`must be between 1 and 999 minutes`).
    static func int(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, Int> & Sendable, _ description: String, in range: ClosedRange<Int>,
        unit: String = ""
    ) -> ConfigKey {
        ConfigKey(
            name, .integer, description, apply: { configuration, value in configuration[keyPath: field] = try value.int(in: range, unit: unit) },
            show: { .number(Double($0[keyPath: field])) })
    }

    /// An integer in `range`, unset until given.
    static func optionalInt(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, Int?> & Sendable, _ description: String, in range: ClosedRange<Int>,
        unit: String = ""
    ) -> ConfigKey {
        ConfigKey(
            name, .integer, description, apply: { configuration, value in configuration[keyPath: field] = try value.int(in: range, unit: unit) },
            show: { $0[keyPath: field].map { .number(Double($0)) } ?? .null })
    }

    static func bool(_ name: String, _ field: any WritableKeyPath<ServerConfiguration, Bool> & Sendable, _ description: String) -> ConfigKey {
        ConfigKey(
            name, .boolean, description, apply: { configuration, value in configuration[keyPath: field] = try value.bool() },
            show: { .bool($0[keyPath: field]) })
    }

    static func list(_ name: String, _ field: any WritableKeyPath<ServerConfiguration, [String]> & Sendable, _ description: String) -> ConfigKey {
        ConfigKey(
            name, .list, description, apply: { configuration, value in configuration[keyPath: field] = try value.list() },
            show: { .array($0[keyPath: field].map(JSON.string)) })
    }

    /// A list of addresses or CIDR blocks; an entry that is neither stops the start, rather
    /// than silently matching nothing.
    static func addressList(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, [String]> & Sendable, _ description: String
    ) -> ConfigKey {
        ConfigKey(
            name, .list, description,
            apply: { configuration, value in
                let entries = try value.list()
                for entry in entries where AddressRange(entry) == nil {
                    throw value.error("\(entry) is not an IP address or CIDR block")
                }
                configuration[keyPath: field] = entries
            }, show: { .array($0[keyPath: field].map(JSON.string)) })
    }

    /// Whole seconds held as an optional duration; `0` is "no limit" (nil).
    static func seconds(
        _ name: String, _ field: any WritableKeyPath<ServerConfiguration, Duration?> & Sendable, _ description: String,
        defaultNote: String? = nil
    ) -> ConfigKey {
        ConfigKey(
            name, .integer, description, defaultNote: defaultNote,
            apply: { configuration, value in
                let seconds = try value.int()
                try value.require(seconds >= 0, "must be 0 (no limit) or seconds")
                configuration[keyPath: field] = seconds == 0 ? nil : .seconds(seconds)
            }, show: { .number(Double($0[keyPath: field]?.components.seconds ?? 0)) })
    }
}
