import NIOCore

/// A connection's event loop as a Swift task executor, so a request's handler runs on the thread
/// that read it instead of hopping to the cooperative pool and back.
///
/// Each hop costs a wake-up and a context switch, which on a simple read cost more CPU than the
/// read's own work (docs/benchmarks.md, "Thread hops"). Nothing on the request path may block:
/// password hashing runs on its own thread pool and database calls leave through callbacks, so
/// the event loop is only ever held by the short synchronous stretches between awaits.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
