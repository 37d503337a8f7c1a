import ArgumentParser

/// The `rooftop` command line as a library: what the `RooftopServer` product offers a Swift
/// program that embeds the server. The `rooftop` executable is nothing but a call to ``main()``.
public enum RooftopCommandLine {
    /// Parses the process's arguments, runs the command they name (`serve`, `config`, `users` …)
    /// and exits the process with its status, exactly as `rooftop` does.
    public static func main() async {
        await RooftopCommand.main()
    }

    /// Runs the command that `arguments` (without the program's name) name, then exits the
    /// process with its status: `await RooftopCommandLine.main(["serve", "--port", "8080"])`.
    public static func main(_ arguments: [String]) async {
        await RooftopCommand.main(arguments)
    }
}
