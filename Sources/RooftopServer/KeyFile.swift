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

    /// The start-up lines. A generated master key is shown only on an interactive terminal:
    /// under a process supervisor standard output goes to logs that outlive it.
    static func printBanner(_ configuration: ServerConfiguration, keys: KeyFile, port: Int, interactive: Bool = isatty(STDOUT_FILENO) != 0) {
        let base = "http://\(configuration.host):\(port)\(configuration.httpSettings.mountPath)"
        var lines = ["Rooftop is listening at \(base) (data in \(configuration.dataDir), \(configuration.profile) profile)"]
        if keys.generated && interactive {
            lines.append("Generated keys, stored in \(configuration.dataDir)/keys.json (mode 0600):")
            lines.append("  application id: \(keys.appId)")
            lines.append("  master key:     \(keys.masterKey)")
        } else if keys.generated {
            lines.append("Generated keys, stored in \(configuration.dataDir)/keys.json (mode 0600); the master key is not printed here,")
            lines.append("as this output is not a terminal: read it from that file.")
            lines.append("  application id: \(keys.appId)")
        } else {
            lines.append("Application id: \(keys.appId) (keys in \(configuration.dataDir)/keys.json or your configuration)")
        }
        lines.append("Try it:")
        lines.append("  curl -X POST -H 'X-Parse-Application-Id: \(keys.appId)' -H 'Content-Type: application/json' \\")
        lines.append("       -d '{\"title\":\"hello\"}' \(base)/classes/Note")
        print(lines.joined(separator: "\n"))
        // stdout is a pipe under process supervisors; show the banner now, not at exit.
        fflush(nil)
    }
}
