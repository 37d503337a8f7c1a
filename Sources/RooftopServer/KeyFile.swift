import Foundation
import RooftopCore
import RooftopHTTP

/// The application id and master key generated on first start (`<data-dir>/keys.json`, 0600).
struct KeyFile {
    let appId: String
    let masterKey: String
    let generated: Bool

    /// The keys stored in `<dataDir>/keys.json`, if any; creates nothing.
    static func stored(in dataDir: String) throws -> (appId: String?, masterKey: String?) {
        let stored = try ConfigFile.read(dataDir + "/keys.json", required: false) ?? [:]
        return (stored["appId"]?.stringValue, stored["masterKey"]?.stringValue)
    }

    static func loadOrCreate(configuration: inout ServerConfiguration) throws -> KeyFile {
        let path = configuration.dataDir + "/keys.json"
        var stored: [String: JSON] = (try ConfigFile.read(path, required: false)) ?? [:]
        var generated = false
        if configuration.appId == nil, stored["appId"]?.stringValue == nil {
            stored["appId"] = .string(ObjectId.generate(length: 24))
            generated = true
        }
        if configuration.masterKey == nil, stored["masterKey"]?.stringValue == nil {
            stored["masterKey"] = .string(ObjectId.generate(length: 40))
            generated = true
        }
        if generated { try ConfigFile.writePrivate(JSONWriter.string(.object(stored), sortedKeys: true) + "\n", to: path) }
        guard let appId = configuration.appId ?? stored["appId"]?.stringValue,
            let masterKey = configuration.masterKey ?? stored["masterKey"]?.stringValue
        else { throw ConfigError("\(path) is missing appId or masterKey") }
        return KeyFile(appId: appId, masterKey: masterKey, generated: generated)
    }
}
