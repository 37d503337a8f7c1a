import Foundation
import Testing

/// Runs a program this repository builds (an example or a DocC snippet) against a test server,
/// with a storage directory of its own: its exit status and everything it printed.
struct ProgramRunner {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the binaries are, and the command that builds them (for the failure message).
    let directory: URL
    let buildCommand: String

    func run(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> (Int32, String) {
        let binary = directory.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build it first: \(buildCommand)")
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-program-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        // XDG_DATA_HOME: the SDK's default storage directory lives under it.
        return try Self.runProcess(
            binary, arguments.map { $0.replacingOccurrences(of: "{storage}", with: storage.path) },
            environment: ProcessInfo.processInfo.environment.merging(environment.merging(["XDG_DATA_HOME": storage.path]) { $1 }) { $1 })
    }

    /// Runs `executable` to completion (in `directory`, if given): its exit status and everything
    /// it printed.
    static func runProcess(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
