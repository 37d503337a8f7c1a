import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data directory holds every user's data (the database, its write-ahead log, backups, the
/// keys and the mail outbox): only the account that runs the server may read it.
enum DataDirectory {
    /// From here on, files and directories this process creates are private (0600, 0700):
    /// SQLite makes its `-wal` and `-shm` files itself, so asking for it file by file is not
    /// enough.
    static func createPrivately() {
        umask(0o077)
    }

    /// Creates `path` if needed and takes group and world access away from it and from the files
    /// directly in it, which older versions created readable by everyone.
    static func prepare(_ path: String) throws {
        createPrivately()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        tighten(path, to: 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            let item = path + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: item, isDirectory: &isDirectory) else { continue }
            tighten(item, to: isDirectory.boolValue ? 0o700 : 0o600)
        }
    }

    private static func tighten(_ path: String, to mode: mode_t) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { return }
        if info.st_mode & 0o077 != 0 { chmod(path, (info.st_mode & 0o7777) & mode) }
    }
}
