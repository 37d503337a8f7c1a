import Foundation
import RooftopCore

/// Reading `rooftop.json` and the generated key file.
enum ConfigFile {
    /// The file's settings, or nil when it does not exist and is not required.
    static func read(_ path: String, required: Bool) throws -> [String: JSON]? {
        guard FileManager.default.fileExists(atPath: path) else {
            if required { throw ConfigError("configuration file \(path) does not exist") }
            return nil
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            guard case .object(let values) = try JSONParser.parse(Array(data)) else { throw ConfigError("\(path) must hold a JSON object") }
            return values
        } catch let error as ParseError {
            throw ConfigError("\(path): \(error.message)")
        }
    }

    /// Writes `contents` readable by the owner only (0600).
    static func writePrivate(_ contents: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigError("cannot write \(path)")
        }
    }
}
