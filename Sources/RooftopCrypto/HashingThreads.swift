import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The threads bcrypt runs on: one per core, below the priority of the threads that serve
/// requests.
///
/// A login storm keeps every core hashing (about 25 ms a password); at equal priority the
/// kernel time-slices the event loops with it, and a cheap read waits milliseconds for its
/// loop's turn. A little below it (niceness 4: about 40 % of a loop's weight when both want a
/// core) reads keep their latency while logins still get most of what they had, and all of an
/// idle machine (docs/benchmarks.md, "Event loops"). Lowering one's own priority needs no
/// privilege; raising it back would, which is why these threads are not NIO's shared pool.
enum HashingThreads {
    /// The niceness of a hashing thread (the loops stay at the process's, normally 0).
    static let niceness: Int32 = 4

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// Runs `body` on a hashing thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await pool.runIfActive {
            lowerPriority()
            return body()
        }
    }

    /// Lowers the calling thread's priority. On Linux niceness belongs to each thread and
    /// `PRIO_PROCESS` with id 0 names the calling one (setpriority(2), NOTES); elsewhere the call
    /// would change the whole process, so it does nothing there.
    static func lowerPriority() {
        #if os(Linux)
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
