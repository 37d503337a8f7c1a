import ArgumentParser
import Foundation

/// The `rooftop` command line as a library: what the `RooftopServer` product offers a Swift
/// program that embeds the server. The `rooftop` executable is nothing but a call to ``main()``.
public enum RooftopCommandLine {
    /// Parses the process's arguments, runs the command they name (`serve`, `config`, `export` …)
    /// and exits the process with its status, exactly as `rooftop` does.
    public static func main() async {
        await main(Array(CommandLine.arguments.dropFirst()))
    }

    /// Runs the command that `arguments` (without the program's name) name, then exits the
    /// process with its status: `await RooftopCommandLine.main(["serve", "--port", "8080"])`.
    public static func main(_ arguments: [String]) async {
        let status = await run(arguments)
        exit(status)
    }

    /// Runs the command and returns its exit status: 0; 64 and a usage line for a mistake in
    /// the command line; for a failure at run time one line naming what to do, no usage, and
    /// the status of ``CommandFailure``.
    package static func run(_ arguments: [String]) async -> Int32 {
        do {
            var command = try RooftopCommand.parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            if let failure = CommandFailure.explaining(error) {
                FileHandle.standardError.write(Data("rooftop: \(failure.description)\n".utf8))
                return failure.status
            }
            let message = RooftopCommand.fullMessage(for: error)
            let code = RooftopCommand.exitCode(for: error)
            if !message.isEmpty {
                let handle = code == .success ? FileHandle.standardOutput : FileHandle.standardError
                handle.write(Data((message + "\n").utf8))
            }
            return code.rawValue
        }
    }
}

extension RooftopCommandLine {
    /// Runs the command the process's arguments name with `cloud`'s handlers, then exits the
    /// process with its status: the `main` of a program that adds server-side logic.
    public static func main(cloud: CloudCode) async {
        await main(Array(CommandLine.arguments.dropFirst()), cloud: cloud)
    }

    /// Runs the command `arguments` name with `cloud`'s handlers, then exits the process.
    public static func main(_ arguments: [String], cloud: CloudCode) async {
        let status = await CloudCode.$current.withValue(cloud) { await run(arguments) }
        exit(status)
    }
}
