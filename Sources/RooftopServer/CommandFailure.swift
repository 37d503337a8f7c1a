import Foundation
import NIOCore
import RooftopStorage

/// Why a command could not do its job, as an operator reads it: one line that names the port,
/// the path or the setting and what to do, and an exit status of its own (sysexits.h), with no
/// usage text — a runtime failure is not a mistake in the command line.
package struct CommandFailure: Error, CustomStringConvertible {
    /// The line printed after `rooftop: `.
    package var description: String
    /// The process's exit status.
    package var status: Int32

    /// The input is not what the command needs: an import into a database that is not empty,
    /// a file without the expected section (EX_DATAERR).
    package static let dataError: Int32 = 65
    /// A file or database to read does not exist (EX_NOINPUT).
    package static let noInput: Int32 = 66
    /// A configuration value, file or variable is wrong (EX_CONFIG).
    package static let configuration: Int32 = 78
    /// A service the command needs (a port, the database) is not there (EX_UNAVAILABLE).
    package static let unavailable: Int32 = 69
    /// A file could not be read or written (EX_IOERR).
    package static let inputOutput: Int32 = 74
    /// The operating system refused (EX_NOPERM).
    package static let permission: Int32 = 77
    /// Anything else (EX_SOFTWARE).
    package static let software: Int32 = 70

    package init(_ description: String, status: Int32) {
        self.description = description
        self.status = status
    }

    /// `error` as the operator should read it, or nil for the command line's own errors (usage,
    /// `--help`, `--version`), which ArgumentParser reports.
    package static func explaining(_ error: any Error) -> CommandFailure? {
        switch error {
        case let failure as CommandFailure:
            return failure
        case let error as ConfigError:
            return CommandFailure("configuration: \(error.description)", status: configuration)
        case let error as StorageError:
            return CommandFailure("database: \(error.cause)", status: unavailable)
        case let error as CocoaError:
            let path = error.filePath ?? error.url?.path ?? "a file"
            return CommandFailure("cannot use \(path): \(reason(of: error))", status: inputOutput)
        case let error as IOError:
            return CommandFailure("\(error.description)", status: error.errnoCode == EACCES ? permission : software)
        default:
            let name = String(reflecting: type(of: error))
            // ArgumentParser's own errors (usage, help, version, exit codes) stay its own.
            if name.hasPrefix("ArgumentParser.") { return nil }
            return CommandFailure("\(error)", status: software)
        }
    }

    /// A file error in words, without Foundation's domain and code.
    static func reason(of error: CocoaError) -> String {
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: "no such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
        case .fileWriteOutOfSpace: "the disk is full"
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: "it is not UTF-8 text"
        case .fileWriteFileExists: "it already exists"
        default: (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
        }
    }

    /// A second Ctrl-C stopped the server without waiting for requests in flight (128 + SIGINT,
    /// as a shell reports an interrupted program).
    static let interrupted = CommandFailure("stopped at once by a second interrupt; requests in flight were cut off", status: 130)

    /// The failure to listen on `host:port`.
    static func listening(_ error: IOError, host: String, port: Int) -> CommandFailure {
        switch error.errnoCode {
        case EADDRINUSE:
            return CommandFailure(
                "port \(port) on \(host) is already in use: stop what listens there, or choose another port with --port (or ROOFTOP_PORT)",
                status: unavailable)
        case EACCES:
            return CommandFailure(
                "port \(port) on \(host) needs privileges this account lacks: use a port above 1023 behind a reverse proxy",
                status: permission)
        case EADDRNOTAVAIL:
            return CommandFailure("\(host) is not an address of this machine: choose another with --host (or ROOFTOP_HOST)", status: unavailable)
        default:
            return CommandFailure("cannot listen on \(host):\(port): \(error.description)", status: unavailable)
        }
    }
}
