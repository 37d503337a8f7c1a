import Foundation
import RooftopCore
import RooftopIdentity
import RooftopServices

extension ServerConfiguration {
    /// The `auth` option's keys per provider (Parse's names where Parse has them).
    static let authOptionKeys: [ProviderSettings.Kind: [String]] = [
        .apple: [
            "clientId", "clientSecret", "teamId", "keyId", "privateKey", "privateKeyPath", "issuer", "jwksURL", "authorizationEndpoint",
            "tokenEndpoint",
        ],
        .google: ["clientId", "clientSecret", "issuer", "jwksURL", "authorizationEndpoint", "tokenEndpoint"],
        .facebook: ["appIds", "appSecret", "graphURL", "authorizationEndpoint", "tokenEndpoint"],
        .github: ["clientId", "clientSecret", "apiURL", "authorizationEndpoint", "tokenEndpoint"],
        .oidc: ["issuer", "clientId", "clientSecret", "jwksURL", "authorizationEndpoint", "tokenEndpoint"],
    ]

    /// Reads `auth`: `{"apple":{"clientId":…},"google":{…},"facebook":{"appIds":…,"appSecret":…},
    /// "github":{},"<name>":{"issuer":…,"clientId":…}}`. Any name but the four presets is an
    /// OpenID Connect provider found by discovery from its `issuer`.
    mutating func applyAuth(_ value: ConfigValue) throws {
        var providers: [ProviderSettings] = []
        for (name, json) in try value.object().sorted(by: { $0.key < $1.key }) {
            let entry = value.member(name, json)
            try entry.require(FieldName.isIdentifier(name) && name != "anonymous", "is not a provider name (anonymous users: enableAnonymousUsers)")
            let kind = ProviderSettings.Kind(rawValue: name).flatMap { $0 == .oidc ? nil : $0 } ?? .oidc
            var settings = ProviderSettings(name: name, kind: kind)
            var apple: [String: String] = [:]
            for (key, item) in try entry.object() {
                let option = entry.member(key, item)
                guard Self.authOptionKeys[kind]?.contains(key) == true else { throw entry.unknownMember(key, known: Self.authOptionKeys[kind] ?? []) }
                switch key {
                case "clientId", "appIds": settings.clientIds = try option.list()
                case "appSecret", "clientSecret": settings.clientSecret = try option.string()
                case "authorizationEndpoint": settings.authorizationEndpoint = try Self.endpoint(option)
                case "tokenEndpoint": settings.tokenEndpoint = try Self.endpoint(option)
                case "issuer": settings.issuer = try Self.endpoint(option)
                case "jwksURL": settings.jwksURL = try Self.endpoint(option)
                case "teamId", "keyId": apple[key] = try Self.appleId(option)
                case "privateKey", "privateKeyPath":
                    try option.require(apple["privateKey"] == nil, "is given with the other of privateKey and privateKeyPath: give one")
                    apple["privateKey"] = key == "privateKey" ? try option.string() : try Self.readKeyFile(option)
                default: settings.apiURL = try Self.endpoint(option)
                }
            }
            if kind == .apple { settings.appleKey = try Self.appleKey(apple, entry, presigned: settings.clientSecret != nil) }
            switch kind {
            case .apple, .google, .oidc:
                try entry.require(!settings.clientIds.isEmpty && !settings.clientIds.contains(""), "needs clientId (the accepted audiences)")
                if kind == .oidc { try entry.require(settings.issuer != nil, "needs issuer (OpenID Connect discovery)") }
            case .facebook: try entry.require(!settings.clientIds.isEmpty && !settings.clientIds.contains(""), "needs appIds")
            case .github: break
            }
            providers.append(settings)
        }
        auth = providers
    }

    /// Sign in with Apple's signing key: `teamId`, `keyId` and `privateKey` (or
    /// `privateKeyPath`) all together, and not beside a pre-signed `clientSecret`. The key must
    /// be a P-256 private key in PEM; errors never quote it.
    private static func appleKey(_ given: [String: String], _ entry: ConfigValue, presigned: Bool) throws -> AppleSigningKey? {
        guard !given.isEmpty else { return nil }
        guard let teamId = given["teamId"], let keyId = given["keyId"], let pem = given["privateKey"] else {
            throw entry.error("needs teamId, keyId and privateKey (or privateKeyPath) together to sign the client secret")
        }
        try entry.require(!presigned, "takes either clientSecret (a pre-signed JWT) or teamId, keyId and privateKey, not both")
        let key = AppleSigningKey(teamId: teamId, keyId: keyId, privateKey: pem)
        try entry.require(key.isValid, "privateKey is not a P-256 private key in PEM (the .p8 file Apple gives)")
        return key
    }

    /// Apple's team and key ids: 10 letters and digits (some room is left).
    private static func appleId(_ option: ConfigValue) throws -> String {
        let id = try option.string()
        try option.require(
            (1...64).contains(id.utf8.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) },
            "must be Apple's id (letters and digits)")
        return id
    }

    /// The `.p8` file's text (read once, at start-up); the message names the path, never the key.
    private static func readKeyFile(_ option: ConfigValue) throws -> String {
        let path = try option.string()
        guard let data = FileManager.default.contents(atPath: path), data.count <= 16_384 else {
            throw option.error("cannot read the key file \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// An `authRedirectURIs` entry: absolute (a scheme), no fragment, no spaces.
    static func isRedirectURI(_ uri: String) -> Bool {
        guard let url = URLComponents(string: uri), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return !uri.contains("#") && !uri.contains(where: \.isWhitespace)
    }

    /// An endpoint: `https://…`, or `http://` to a loopback host (tests' stand-ins).
    private static func endpoint(_ option: ConfigValue) throws -> String {
        let address = try option.string()
        try option.require(ProviderSettings.isAllowedEndpoint(address), "must be an https URL (http only to 127.0.0.1 or localhost)")
        return address
    }

    /// `auth` as `config print` shows it: secrets hidden.
    var authJSON: JSON {
        var out: [String: JSON] = [:]
        for settings in auth {
            var entry: [String: JSON] = [:]
            if !settings.clientIds.isEmpty { entry[settings.kind == .facebook ? "appIds" : "clientId"] = .array(settings.clientIds.map(JSON.string)) }
            if settings.clientSecret != nil { entry[settings.kind == .facebook ? "appSecret" : "clientSecret"] = "<redacted>" }
            if let key = settings.appleKey {
                entry["teamId"] = .string(key.teamId)
                entry["keyId"] = .string(key.keyId)
                entry["privateKey"] = "<redacted>"
            }
            if let address = settings.authorizationEndpoint { entry["authorizationEndpoint"] = .string(address) }
            if let address = settings.tokenEndpoint { entry["tokenEndpoint"] = .string(address) }
            if let issuer = settings.issuer { entry["issuer"] = .string(issuer) }
            if let jwks = settings.jwksURL { entry["jwksURL"] = .string(jwks) }
            if let api = settings.apiURL { entry[settings.kind == .facebook ? "graphURL" : "apiURL"] = .string(api) }
            out[settings.name] = .object(entry)
        }
        return .object(out)
    }
}

extension ServerConfiguration {
    /// `secondFactorOnProviderSignIn` as written: `required` or `provider`.
    var secondFactorOnProviderSignIn: String {
        get { accounts.providerSignInNeedsSecondFactor ? "required" : "provider" }
        set { accounts.providerSignInNeedsSecondFactor = newValue != "provider" }
    }
}
