import Foundation
import Logging
package import RooftopConsole
package import RooftopCore
package import RooftopHTTP
package import RooftopIdentity
package import RooftopS3
package import RooftopServices

/// The server's typed configuration, layered: defaults < `rooftop.json` < environment < flags.
///
/// Every key is defined once, in `ServerConfiguration.definitions`. The settings the layers use
/// live in the layers' own structs, so their defaults are written once, there.
package struct ServerConfiguration: Sendable {
    package var host = "127.0.0.1"
    package var port = 1337
    package var dataDir = "./rooftop-data"
    /// PostgreSQL instead of the embedded SQLite file (`postgres://…`).
    package var databaseURI: String?
    package var databasePoolSize = 20
    /// The admin console (`console`).
    package var console = ConsoleConfiguration()
    package var appId: String?
    package var masterKey: String?
    package var serverURL: String?
    package var profile = "development"
    /// Unset: derived from `profile`.
    package var allowClientClassCreation: Bool?
    /// Unset: derived from `profile` (on in `development` only).
    package var allowPasswordInQuery: Bool?
    package var publicServerURL: String?
    package var defaultRateLimits = true
    package var logLevel = "info"
    /// `text` (swift-log's lines) or `json` (one JSON object per line).
    package var logFormat = "text"
    package var appName: String?
    /// Seconds a stop (SIGTERM/SIGINT) waits for in-flight requests before closing their
    /// connections; 0 waits as long as they take.
    package var gracefulShutdownTimeout = 30
    /// Seconds a server-side handler (function, trigger) may run before its request fails
    /// (124), unless it set its own limit.
    package var handlerTimeout = 30
    /// Threads serving HTTP (event loops); 0: one per core but one, at least one.
    package var eventLoops = 0
    /// Sent to webhooks as `X-Parse-Webhook-Key`.
    package var webhookKey: String?
    /// Hosts (`host` or `host:port`) webhooks may be registered on.
    package var webhookHosts: [String] = []
    /// `outboundCAFile`: CA certificates trusted by outbound HTTP besides the system's.
    package var outboundCAFile: String?
    /// Prometheus metrics on their own port; 0 is off.
    package var metricsPort = 0
    /// Where the metrics port listens.
    package var metricsHost = "127.0.0.1"
    package var mail = MailSettings()
    /// The REST layer's settings; `appId` and `masterKey` are filled in by `http(appId:masterKey:)`
    /// once the key file has been read. `rateLimits` holds the configured rules only.
    package var httpSettings = HTTPConfiguration(appId: "", masterKey: "")
    /// The use cases' settings, but for `allowClientClassCreation` (see `services`).
    package var serviceSettings = ServicesConfiguration()
    package var accounts = AccountsConfiguration()
    /// `accountLockout` as given; `accounts.lockout` once it has both numbers.
    var lockoutSettings = LockoutSettings()
    /// Upload rules and size (`fileUpload`, `maxUploadSize`).
    package var files = FilesConfiguration()
    /// `disk`, `database` or `s3`; unset: `disk` with SQLite, `database` with PostgreSQL.
    package var fileStorage: String?
    /// The bucket and credentials of `fileStorage: s3`.
    package var s3 = S3Configuration(endpoint: "", bucket: "", accessKeyId: "", secretAccessKey: "")
    /// Sign-in providers (`auth`), besides anonymous users.
    package var auth: [ProviderSettings] = []

    package init() {}

    /// Every key's name, in the reference's order.
    package static var keys: [String] { definitions.map(\.name) }

    /// Parse Server's log levels; `verbose` (and below) adds a line per request.
    static let logLevels = ["error", "warn", "info", "verbose", "debug", "silly"]

    /// The definition named `name` or one of its aliases.
    package static func definition(_ name: String) -> ConfigKey? { definitionsByName[name] }

    private static let definitionsByName: [String: ConfigKey] = Dictionary(
        definitions.flatMap { key in key.names.map { ($0, key) } }, uniquingKeysWith: { first, _ in first })

    /// Applies `values` (from a file, the environment or flags) on top of this configuration.
    package mutating func apply(_ values: [String: JSON], source: String) throws {
        // Sorted, so which of two wrong keys is reported does not change from run to run.
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let key = Self.definition(name) else {
                let known = Self.definitions.flatMap(\.names)
                throw ConfigError("\(source): unknown configuration key \(name)\(Suggestion.hint(for: name, among: known))")
            }
            let given = ConfigValue(value, source: source, key: key.name)
            try key.apply(&self, given)
            try key.check?(&self, given)
        }
    }

    /// Values from the known `ROOFTOP_*` and `PARSE_SERVER_*` variables (ROOFTOP_ wins), by key;
    /// for reading one key (`dataDir`) before the layers are applied, so objects' members are not
    /// among them.
    package static func environmentValues(_ env: [String: String]) -> [String: JSON] {
        var values: [String: JSON] = [:]
        for key in definitions {
            for variable in key.variablesRead { if let value = env[variable] { values[key.name] = .string(value) } }
        }
        return values
    }

    /// The effective configuration as `config print` shows it: every key, secrets redacted.
    package var redacted: JSON { .object(Dictionary(uniqueKeysWithValues: Self.definitions.map { ($0.name, $0.printed(self)) })) }

    /// The use cases' settings.
    package var services: ServicesConfiguration {
        var s = serviceSettings
        s.allowClientClassCreation = allowClientClassCreation ?? (profile == "development")
        return s
    }

    /// The REST layer's settings with the application's keys.
    package func http(appId: String, masterKey: String) -> HTTPConfiguration {
        var h = httpSettings
        h.appId = appId
        h.masterKey = masterKey
        h.rateLimits = rateLimitRules
        h.publicURL = publicServerURL ?? serverURL
        h.allowPasswordInQuery = allowPasswordInQuery ?? (profile == "development")
        h.extraBatchPathPrefixes = [serverURL, publicServerURL].compactMap { url in
            guard let path = url.flatMap({ URLComponents(string: $0)?.path }), path.hasPrefix("/"), path != httpSettings.mountPath else {
                return nil
            }
            return path.hasSuffix("/") ? String(path.dropLast()) : path
        }
        return h
    }

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
