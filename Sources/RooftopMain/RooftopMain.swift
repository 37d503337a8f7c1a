import ArgumentParser
import RooftopServer

/// The `rooftop` executable; everything else lives in the RooftopServer library, where tests can
/// reach it.
@main
enum RooftopMain {
    // An async function, so the call resolves to AsyncParsableCommand's `main()`: from top-level
    // code it picks the synchronous one, which refuses an async command.
    static func main() async {
        await RooftopCommand.main()
    }
}
