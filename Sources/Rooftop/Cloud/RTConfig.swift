public import Foundation
import RooftopCore

/// Parse Config: values the server's operator sets (`PUT /config`) and the app reads at launch,
/// such as a welcome message or a feature switch.
///
/// ```swift
/// let config = try await RTConfig.getConfig()
/// let welcome = config["welcome"] as? String ?? "Hello"
/// ```
///
/// The last values fetched are kept in the storage directory, so ``currentConfig()`` answers at
/// once, offline and after a relaunch. Values the operator marked master-key-only never reach an app.
public final class RTConfig: Sendable {
    let params: [String: JSON]

    init(params: [String: JSON]) { self.params = params }

    /// The value of `key` (decoded as object fields are), or nil.
    public subscript(key: String) -> Any? { object(forKey: key) }

    /// The value of `key` (decoded as object fields are), or nil.
    public func object(forKey key: String) -> Any? { params[key].map { ValueCoding.decode($0, user: nil) } }

    /// The keys that have a value, sorted.
    public var keys: [String] { params.keys.sorted() }

    /// Fetches the values from the server and keeps them as ``currentConfig()``.
    public static func getConfig() async throws -> RTConfig {
        let client = try RTClient.current()
        let answer = try await client.send(APIRequest(method: "GET", path: "/config"), as: RTUser.currentUser())
        guard let params = answer["params"]?.objectValue else { throw RTError(.invalidJSON, "The server's config has no params.") }
        let config = RTConfig(params: params)
        client.keep(config)
        return config
    }

    /// `getConfig()`, blocking the calling thread.
    @available(*, noasync, message: "use the async getConfig()")
    public static func getConfig() throws -> RTConfig { try Callback.wait { try await getConfig() } }

    /// `getConfig()` in the background; `block` gets the values or the error.
    public static func getConfigInBackground(block: (@Sendable (RTConfig?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await getConfig() }
    }

    /// The values fetched last (on this device, even in an earlier launch); empty before the
    /// first fetch.
    public static func currentConfig() -> RTConfig {
        RTClient.currentIfInstalled?.keptConfig ?? RTConfig(params: [:])
    }
}

extension RTClient {
    static let configFile = "config.json"

    /// Keeps `config` in memory and in the storage directory.
    func keep(_ config: RTConfig) {
        lastConfig = config
        let file = configuration.resolvedStorageDirectory.appendingPathComponent(Self.configFile)
        try? PrivateFiles.write(Data(JSONWriter.bytes(.object(config.params))), to: file)
    }

    /// The last config fetched: from memory, else from the storage directory.
    var keptConfig: RTConfig? {
        if let config = lastConfig { return config }
        let file = configuration.resolvedStorageDirectory.appendingPathComponent(Self.configFile)
        guard let data = try? Data(contentsOf: file), let params = (try? JSONParser.parse(data))?.objectValue else { return nil }
        let config = RTConfig(params: params)
        lastConfig = config
        return config
    }
}
