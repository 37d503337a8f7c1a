import RooftopServer
import RooftopTesting
import Testing

extension MultiNodeTests {
    /// Two nodes with the same schedule on one database: each interval, one run.
    @Test func scheduledJobsRunOnOneNode() async throws {
        let clock = TestClock()
        var cloud = CloudCode()
        cloud.job("digest", every: .seconds(600)) { request in _ = try await request.objects.create("Digest", [:], as: .master) }
        let cluster = try await ClusterNodes.start(cloud: cloud, clock: clock)
        do {
            try await clock.untilSleeping(4)  // each node's maintenance and schedule
            for round in 1...2 {
                clock.advance(by: .seconds(600))
                // Both schedules asleep again: both nodes have had their try at this interval.
                try await clock.untilSleeping(4)
                try await waitUntil {
                    try await cluster.call(round % 2, "GET", "/classes/Digest", master: true).1["results"]?.arrayValue?.count == round
                }
                #expect(try await cluster.call(0, "GET", "/classes/_JobStatus", master: true).1["results"]?.arrayValue?.count == round)
            }
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
