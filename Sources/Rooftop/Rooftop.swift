public import Foundation

/// Where the SDK connects, and how.
public struct RTConfiguration: Sendable {
    /// The server's application id (`X-Parse-Application-Id`).
    public var applicationId: String
    /// The client key, when the server requires one (the "app secret").
    public var clientKey: String?
    /// The server's URL with its mount path, e.g. `http://127.0.0.1:1337/parse`.
    public var server: String
    /// Where signed-in users and the installation id are kept on Linux (files of mode 0600);
    /// default `$XDG_DATA_HOME/rooftop/<applicationId>/`, else
    /// `~/.local/share/rooftop/<applicationId>/`. Also used on Apple platforms when set.
    public var storageDirectory: URL?
    /// The Keychain service the users are stored under on Apple platforms
    /// (default `rooftop.<applicationId>`).
    public var keychainService: String?
    /// Seconds before a request gives up (default 30).
    public var requestTimeout: TimeInterval = 30
    /// How many times a request that is safe to repeat (a read) is retried after a network
    /// failure (default 2).
    public var maxRetries: Int = 2
    /// Where the SDK's warnings go (default: standard error). Never given a session token.
    public var warningHandler: (@Sendable (String) -> Void)?

    /// A configuration for `server`.
    public init(applicationId: String, clientKey: String? = nil, server: String) {
        self.applicationId = applicationId
        self.clientKey = clientKey
        self.server = server
    }

    /// The storage directory: the configured one, else the platform's default.
    var resolvedStorageDirectory: URL {
        if let storageDirectory { return storageDirectory }
        let environment = ProcessInfo.processInfo.environment
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        #else
            let base =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        #endif
        return base.appendingPathComponent("rooftop").appendingPathComponent(Self.safeName(applicationId))
    }

    /// The application id as one path component: never `..` or a slash.
    static func safeName(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? Character($0) : "_" }
        let result = String(allowed)
        return result.isEmpty || result.allSatisfy({ $0 == "." }) ? "_" : result
    }
}

/// The SDK's entry point: call `initialize` once, before anything else.
public enum Rooftop {
    /// Connects the SDK to a server and restores the users signed in on this device.
    ///
    /// ```swift
    /// Rooftop.initialize(applicationId: "myAppId", clientKey: nil, server: "http://127.0.0.1:1337/parse")
    /// ```
    public static func initialize(applicationId: String, clientKey: String? = nil, server: String) {
        initialize(with: RTConfiguration(applicationId: applicationId, clientKey: clientKey, server: server))
    }

    /// Connects the SDK with every setting of `configuration`.
    public static func initialize(with configuration: RTConfiguration) {
        RTClient.install(RTClient(configuration: configuration))
    }

    /// The SDK's version, sent as `X-Parse-Client-Version`.
    public static let version = "0.9.0"
}
