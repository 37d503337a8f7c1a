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
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        do {
            guard case .object(let values) = try JSONParser.parse(bytes, failureOffset: &offset) else {
                throw ConfigError("\(path) must hold a JSON object")
            }
            return values
        } catch let error as ParseError {
            throw ConfigError("\(path):\(position(of: offset, in: bytes)): \(error.message)")
        }
    }

    /// `line:column` (both from 1, the column in bytes) of `offset` in `bytes`.
    static func position(of offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes.prefix(min(offset, bytes.count))
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "\(line):\(column)"
    }

    /// Writes `contents` readable by the owner only (0600).
    static func writePrivate(_ contents: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigError("cannot write \(path)")
        }
    }
}
