import Foundation

/// Copies a directory file store (`<dataDir>/files`): every stored file and its metadata, into a
/// new private directory. Uploads in progress (`.tmp`) are left out.
enum FileBackup {
    /// Copies `source` to `target` (which must not exist); the number of files copied.
    static func copy(from source: String, to target: String) throws -> Int {
        let manager = FileManager.default
        DataDirectory.createPrivately()
        try manager.createDirectory(atPath: target + "/.meta", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try manager.createDirectory(atPath: target + "/.tmp", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var count = 0
        for name in try manager.contentsOfDirectory(atPath: source) where !name.hasPrefix(".") {
            try manager.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
            if manager.fileExists(atPath: source + "/.meta/" + name) {
                try manager.copyItem(atPath: source + "/.meta/" + name, toPath: target + "/.meta/" + name)
            }
            count += 1
        }
        return count
    }
}
