import RooftopServer

/// The `rooftop` executable: the RooftopServer product's public entry point and nothing else,
/// so the executable needs no more than an embedding program does.
@main
enum RooftopMain {
    // An async function, so the call resolves to the async `main()`: from top-level code Swift
    // picks a synchronous overload where one exists.
    static func main() async {
        await RooftopCommandLine.main()
    }
}
