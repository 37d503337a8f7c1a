import NIOCore
import NIOPosix

/// The event loops that serve HTTP: how many, and the group `rooftop serve` runs them on.
///
/// Every request runs on its connection's event loop, database point reads included, and a
/// connection never moves to another loop. So a loop thread the kernel preempts stalls every
/// connection it holds until it runs again: on a small machine whose cores are also busy with
/// the database writer, password hashing, a reverse proxy or a co-located client, one loop per
/// core meant a scheduler time slice (milliseconds) in the tail of every cheap request, and a
/// wake-up per request where fewer loops serve several per wake-up. One core is left to the
/// rest (docs/benchmarks.md, "Event loops"); `eventLoops` overrides it.
package enum EventLoops {
    /// Threads for `configured` (`0`: automatic) on a machine of `cores`: automatic is one per
    /// core but one, at least one.
    package static func count(configured: Int, cores: Int) -> Int {
        configured > 0 ? configured : max(1, cores - 1)
    }

    /// The loops `configuration` asks for on this machine (NIO's core count honours a
    /// container's CPU quota).
    static func count(_ configuration: ServerConfiguration) -> Int {
        count(configured: configuration.eventLoops, cores: System.coreCount)
    }

    /// A group of `count` loops for the life of the process, its threads named `http-loop-…`
    /// so `top -H` and `/proc` tell them from NIO's other threads.
    static func group(count: Int) -> MultiThreadedEventLoopGroup {
        // The perpetual form is the only one that takes a thread name; the server's loops live
        // as long as the process anyway.
        MultiThreadedEventLoopGroup._makePerpetualGroup(threadNamePrefix: "http-loop-", numberOfThreads: count)
    }
}
