import Foundation
import ServiceLifecycle
import UnixSignals

/// A second Ctrl-C while the server stops: the first one lets requests in flight finish (up to
/// `gracefulShutdownTimeout`); an operator who presses it again wants the process gone now.
/// ServiceLifecycle refuses one signal as both graceful and cancelling, so this member of the
/// group counts them and fails on the second, which cancels the group. The first one is
/// answered with a line on standard error, so the operator knows it was heard.
struct SecondInterrupt: Service {
    /// `gracefulShutdownTimeout`: seconds the stop waits; 0 waits as long as requests take.
    let gracefulTimeout: Int

    func run() async throws {
        var seen = 0
        for await _ in await UnixSignalsSequence(trapping: .sigint).cancelOnGracefulShutdown() {
            seen += 1
            if seen == 1 { FileHandle.standardError.write(Data("rooftop: \(Self.stopping(gracefulTimeout: gracefulTimeout))\n".utf8)) }
            if seen == 2 { throw CommandFailure.interrupted }
        }
    }

    /// The line the first interrupt prints.
    static func stopping(gracefulTimeout: Int) -> String {
        let limit = gracefulTimeout > 0 ? "up to \(gracefulTimeout) s" : "as long as they take"
        return "stopping (draining): requests in flight may finish, \(limit); press Ctrl-C again to stop at once"
    }
}
