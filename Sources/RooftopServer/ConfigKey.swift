import Foundation
package import RooftopCore

/// The definition of one configuration key: everything the file, the environment, the flags,
/// `rooftop config print` and docs/configuration.md know about it.
package struct ConfigKey: Sendable {
    /// What a value is written as, for the reference.
    package enum Kind: String, Sendable {
        case string, integer, boolean, list, object, array
    }

    /// The file's name (Parse Server's).
    package let name: String
    /// Other names accepted for it (Parse's older spellings).
    package let aliases: [String]
    package let kind: Kind
    /// One line for the reference (Markdown).
    package let description: String
    /// Whether `config print` hides its value.
    package var secret: Bool { redaction != .none }
    /// How `config print` hides it.
    package let redaction: Redaction

    /// What of a value `config print` hides.
    package enum Redaction: Sendable {
        case none
        /// The whole value.
        case value
        /// A URL's password only: the host and database name help an operator.
        case urlPassword
    }
    /// The command-line flag that sets it, if any.
    package let flag: String?
    /// The default in words, when it is not a value (generated, derived from another key).
    package let defaultNote: String?
    /// Parses and validates `value`, and stores it.
    let apply: @Sendable (inout ServerConfiguration, ConfigValue) throws -> Void
    /// The value in force, as `config print` shows it before redaction.
    let show: @Sendable (ServerConfiguration) -> JSON
    /// A nested object's members (`mail.host`, …), each a key of its own with its own variables
    /// and row in the reference; empty for a plain key.
    package let members: [ConfigKey]
    /// Rules across members (`mail.host` with the smtp transport), run once a layer has set all
    /// of its members, so one member's variable never fails for lack of the next one's.
    let check: (@Sendable (inout ServerConfiguration, ConfigValue) throws -> Void)?

    init(
        _ name: String, _ kind: Kind, _ description: String, aliases: [String] = [], redaction: Redaction = .none, flag: String? = nil,
        defaultNote: String? = nil, members: [ConfigKey] = [], check: (@Sendable (inout ServerConfiguration, ConfigValue) throws -> Void)? = nil,
        apply: @escaping @Sendable (inout ServerConfiguration, ConfigValue) throws -> Void,
        show: @escaping @Sendable (ServerConfiguration) -> JSON
    ) {
        self.name = name
        self.kind = kind
        self.description = description
        self.aliases = aliases
        self.redaction = redaction
        self.flag = flag
        self.defaultNote = defaultNote
        self.apply = apply
        self.show = show
        self.members = members
        self.check = check
    }

    /// The name inside its object: `host` for `mail.host`; a plain key's whole name.
    package var memberName: String { name.split(separator: ".").last.map(String.init) ?? name }

    /// The name and its aliases.
    package var names: [String] { [name] + aliases }

    /// `ROOFTOP_<UPPER_SNAKE>` and `PARSE_SERVER_<UPPER_SNAKE>` of each name, weakest first: a
    /// later variable wins over an earlier one. A member's is its object's and its own
    /// (`mail.caFile` → `MAIL_CA_FILE`).
    package var environmentNames: [String] {
        let snaked = names.map { $0.split(separator: ".").map { Self.upperSnake(String($0)) }.joined(separator: "_") }
        return ["PARSE_SERVER_", "ROOFTOP_"].flatMap { prefix in snaked.map { prefix + $0 } }
    }

    /// Every variable read for the key, weakest first: an old spelling `upperSnake` no longer
    /// gives (`ROOFTOP_AUTH_REDIRECT_UR_IS`), then `environmentNames`. Only the latter are documented.
    package var variablesRead: [String] {
        let legacy = names.map { $0.split(separator: ".").map { Self.legacyUpperSnake(String($0)) }.joined(separator: "_") }
        return legacy.map { "ROOFTOP_" + $0 }.filter { !environmentNames.contains($0) } + environmentNames
    }

    /// The value `config print` shows: secrets in use become `<redacted>`, in an object member
    /// by member.
    package func printed(_ configuration: ServerConfiguration) -> JSON {
        if !members.isEmpty { return .object(Dictionary(uniqueKeysWithValues: members.map { ($0.memberName, $0.printed(configuration)) })) }
        let value = show(configuration)
        switch redaction {
        case .none: return value
        case _ where value.isNull: return value
        case .value: return "<redacted>"
        case .urlPassword: return value.stringValue.map { .string(Self.redactedURL($0)) } ?? "<redacted>"
        }
    }

    /// `appId` → `APP_ID`, `restAPIKey` → `REST_API_KEY`, `authRedirectURIs` → `AUTH_REDIRECT_URIS`
    /// (an acronym's plural `s` stays with it).
    package static func upperSnake(_ key: String) -> String { snake(key, pluralAcronyms: true) }

    /// What `upperSnake` gave before an acronym kept its plural `s` (`AUTH_REDIRECT_UR_IS`):
    /// still read, below the right spelling, so a deployment that set it keeps working.
    static func legacyUpperSnake(_ key: String) -> String { snake(key, pluralAcronyms: false) }

    private static func snake(_ key: String, pluralAcronyms: Bool) -> String {
        var out = ""
        let chars = Array(key)
        for (i, c) in chars.enumerated() {
            guard c.isUppercase, i > 0 else {
                out.append(contentsOf: c.uppercased())
                continue
            }
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            let afterNext: Character? = i + 2 < chars.count ? chars[i + 2] : nil
            // `URIs`: the `s` ends the acronym's word instead of starting one with the `I`.
            let plural = pluralAcronyms && chars[i - 1].isUppercase && next == "s" && (afterNext.map(\.isUppercase) ?? true)
            if chars[i - 1].isLowercase || (next?.isLowercase == true && !plural) { out.append("_") }
            out.append(contentsOf: c.uppercased())
        }
        return out
    }

    /// `url` with its password (in the user part or the query) replaced; a URL that can't be
    /// read is hidden whole, since its password can't be found in it.
    static func redactedURL(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "<redacted>" }
        if components.password != nil { components.password = "<redacted>" }
        components.queryItems = components.queryItems?.map { item in
            ["password", "sslpassword"].contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: "<redacted>") : item
        }
        return components.string ?? "<redacted>"
    }
}
