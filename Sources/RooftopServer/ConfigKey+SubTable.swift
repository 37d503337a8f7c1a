import RooftopCore

/// Nested objects (`mail`, `passwordPolicy`, …) whose members are keys of their own: the file
/// gives the object, the environment the object's JSON text or any member by itself.
extension ConfigKey {
    /// How an object answers a member it does not know.
    enum UnknownMember: Sendable {
        /// `unknown key mail.hots (did you mean host?)`.
        case suggest
        /// `passwordPolicy.validatorCallback is not supported`: Parse options we refuse rather
        /// than ignore, so a migrated configuration never silently loses a rule.
        case unsupported
    }

    /// The object `name` made of `members` (named `name.member`). `whole` reads other forms of the
    /// whole object (`securityNotifications: false`) and says whether it did; `check` holds the
    /// rules across members. Members not given keep their values.
    static func subTable(
        _ name: String, _ description: String, defaultNote: String? = nil, members: [ConfigKey], unknown: UnknownMember = .suggest,
        whole: (@Sendable (inout ServerConfiguration, ConfigValue) throws -> Bool)? = nil,
        check: (@Sendable (inout ServerConfiguration, ConfigValue) throws -> Void)? = nil
    ) -> ConfigKey {
        let byName = Dictionary(members.map { ($0.memberName, $0) }, uniquingKeysWith: { first, _ in first })
        let known = members.map(\.memberName)
        return ConfigKey(
            name, .object, description, defaultNote: defaultNote ?? "see its members", members: members, check: check,
            apply: { configuration, value in
                if let whole, try whole(&configuration, value) { return }
                // Sorted, so which of two wrong members is reported does not change from run to run.
                for (memberName, json) in try value.object().sorted(by: { $0.key < $1.key }) {
                    let item = value.member(memberName, json)
                    guard let member = byName[memberName] else {
                        switch unknown {
                        case .suggest: throw value.unknownMember(memberName, known: known)
                        case .unsupported: throw item.error("is not supported" + Suggestion.hint(for: memberName, among: known))
                        }
                    }
                    try member.apply(&configuration, item)
                }
            },
            show: { configuration in .object(Dictionary(uniqueKeysWithValues: members.map { ($0.memberName, $0.show(configuration)) })) })
    }
}

extension ServerConfiguration {
    /// Applies the known `ROOFTOP_*` and `PARSE_SERVER_*` variables (ROOFTOP_ wins) on top of
    /// this configuration. Each variable is its own source, so an error names the variable to
    /// fix; an object's members' variables come after the object's own and win over it, and the
    /// object's rules across members run once all of them are in. A `ROOFTOP_*` variable no key
    /// reads is refused first (`UnknownVariables`).
    package mutating func applyEnvironment(_ env: [String: String]) throws {
        try UnknownVariables.check(env)
        try applyTexts { entry in
            // The last name wins, as in environmentValues.
            guard let variable = entry.variablesRead.last(where: { env[$0] != nil }), let text = env[variable] else { return nil }
            return (text, variable)
        }
    }

    /// Applies `--set name=value` settings (any key, alias or member; a later one wins) over the
    /// other layers: each value is text, read as an environment variable's would be.
    package mutating func applySettings(_ settings: [String]) throws {
        var given: [String: String] = [:]
        let known = Self.definitions.flatMap { [$0] + $0.members }.flatMap(\.names)
        for setting in settings {
            guard let equals = setting.firstIndex(of: "=") else { throw ConfigError("--set \(setting): expected name=value") }
            let name = String(setting[..<equals])
            guard known.contains(name) else {
                throw ConfigError("--set: unknown configuration key \(name)\(Suggestion.hint(for: name, among: known))")
            }
            given[name] = String(setting[setting.index(after: equals)...])
        }
        try applyTexts { entry in entry.names.compactMap { given[$0] }.last.map { ($0, "--set") } }
    }

    /// Applies each key's and member's text from `text` (its value and source, nil when not
    /// given); an object's members come after the object's own and win over it, and the
    /// object's rules across members run once all of them are in.
    private mutating func applyTexts(_ text: (ConfigKey) -> (text: String, source: String)?) throws {
        for key in Self.definitions {
            var sources: [String] = []
            for entry in [key] + key.members {
                guard let given = text(entry) else { continue }
                try entry.apply(&self, ConfigValue(.string(given.text), source: given.source, key: entry.name))
                sources.append(given.source)
            }
            if let check = key.check, !sources.isEmpty {
                try check(&self, ConfigValue(.null, source: sources.joined(separator: ", "), key: key.name))
            }
        }
    }
}
