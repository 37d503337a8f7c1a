import ServiceLifecycle
import UnixSignals

/// A second Ctrl-C while the server stops: the first one lets requests in flight finish (up to
/// `gracefulShutdownTimeout`); an operator who presses it again wants the process gone now.
/// ServiceLifecycle refuses one signal as both graceful and cancelling, so this member of the
/// group counts them and fails on the second, which cancels the group.
struct SecondInterrupt: Service {
    func run() async throws {
        var seen = 0
        for await _ in await UnixSignalsSequence(trapping: .sigint).cancelOnGracefulShutdown() {
            seen += 1
            if seen == 2 { throw CommandFailure.interrupted }
        }
    }
}
