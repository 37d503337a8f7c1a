import Foundation
import Rooftop

/// `--name value` from the command line, else the environment variable, else `fallback`.
public func option(_ name: String, _ variable: String, _ fallback: String? = nil) -> String? {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count { return arguments[index + 1] }
    return ProcessInfo.processInfo.environment[variable] ?? fallback
}

/// Initializes the SDK from `--app-id`, `--server` and `--storage` (or `ROOFTOP_APP_ID`,
/// `ROOFTOP_SERVER`, `ROOFTOP_STORAGE`); prints the usage of `program` and exits without an app id.
public func initializeFromCommandLine(program: String) {
    guard let appId = option("app-id", "ROOFTOP_APP_ID") else {
        print("usage: \(program) --server http://127.0.0.1:1337/parse --app-id <appId> [--storage <dir>]")
        exit(2)
    }
    var configuration = RTConfiguration(applicationId: appId, server: option("server", "ROOFTOP_SERVER", "http://127.0.0.1:1337/parse") ?? "")
    configuration.storageDirectory = option("storage", "ROOFTOP_STORAGE").map { URL(fileURLWithPath: $0) }
    Rooftop.initialize(with: configuration)
}
