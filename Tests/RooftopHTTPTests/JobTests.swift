import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RooftopCore
import RooftopServer
import RooftopServices
import RooftopTesting
import ServiceLifecycle
import Testing

/// Background jobs: started with the master key, answered at once, their run recorded in
/// `_JobStatus`; schedules on the server's clock, one node per interval; stopped cleanly.
@Suite struct JobTests: LiveServerTest {
    /// A gate a job waits at until the test opens it.
    final class Gate: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func wait() async { for await _ in stream { return } }
        func open() { continuation.yield() }
    }

    /// `POST /jobs/<name>` (or `/jobs` with `jobName`): the status, the run's id, the answer.
    func startJob(_ client: any TestClientProtocol, _ path: String, body: String = "{}", master: Bool = true) async throws -> (Int, String?, JSON) {
        var headers: HTTPFields = [HTTPField.Name("X-Parse-Application-Id")!: testAppId]
        if master { headers[HTTPField.Name("X-Parse-Master-Key")!] = testMasterKey }
        return try await client.execute(uri: "/parse" + path, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            let bytes = Array(response.body.readableBytesView)
            return (
                Int(response.status.code), response.headers[HTTPField.Name("X-Parse-Job-Status-Id")!],
                bytes.isEmpty ? .null : try JSONParser.parse(bytes)
            )
        }
    }

    func status(_ client: any TestClientProtocol, _ id: String) async throws -> JSON {
        try await call(client, .get, "/parse/classes/_JobStatus/\(id)", master: true).json
    }

    @Test func aJobRunsInTheBackgroundAndReportsItsStatus() async throws {
        let gate = Gate()
        var cloud = CloudCode()
        cloud.job("import") { request in
            await request.message("importing \(request.params["file"]?.stringValue ?? "?")")
            await request.progress(0.5)
            await gate.wait()
            _ = try await request.objects.create("Imported", ["file": request.params["file"] ?? .null], as: .caller)
        }
        cloud.job("refuses") { _ in throw ParseError(.validationError, "Nothing to import.") }
        cloud.job("crashes") { _ in throw CancellationError() }
        try await withServer(cloud: cloud) { (client: any TestClientProtocol) async throws in
            #expect(try await startJob(client, "/jobs/import", master: false).0 == 403)
            let (code, id, answer) = try await startJob(client, "/jobs/import", body: #"{"file":"users.csv"}"#)
            #expect(code == 200 && answer == [:])
            let runId = try #require(id)
            // Answered while the job still runs: its status says so, with its message and progress.
            try await waitUntil { try await status(client, runId)["progress"] == 0.5 }
            let running = try await status(client, runId)
            #expect(running["status"] == "running" && running["jobName"] == "import" && running["source"] == "api")
            #expect(running["message"] == "importing users.csv" && running["params"] == ["file": "users.csv"])
            gate.open()
            try await waitUntil { try await status(client, runId)["status"] == "succeeded" }
            let done = try await status(client, runId)
            #expect(done["progress"] == 1 && done["finishedAt"]?["__type"] == "Date")
            #expect(try await call(client, .get, "/parse/classes/Imported", master: true).json["results"]?.arrayValue?.count == 1)

            // A ParseError's message is kept; another error's detail is not.
            let refused = try #require(try await startJob(client, "/jobs", body: #"{"jobName":"refuses"}"#).1)
            try await waitUntil { try await status(client, refused)["status"] == "failed" }
            #expect(try await status(client, refused)["message"] == "Nothing to import.")

            // Unknown jobs, as Parse; clients cannot read the runs.
            #expect(try await startJob(client, "/jobs/missing").2 == ["code": 141, "error": "Invalid job."])
            #expect(try await startJob(client, "/jobs", body: #"{"jobName":{"$gt":""}}"#).2 == ["code": 141, "error": "Invalid job."])
            #expect(try await call(client, .get, "/parse/classes/_JobStatus/\(runId)").json["code"] == 119)
        }
    }

    @Test func schedulesRunOnTheServerClock() async throws {
        let clock = TestClock()
        var cloud = CloudCode()
        cloud.job("nightly", every: .seconds(3600)) { request in
            _ = try await request.objects.create("Nightly", ["source": .string(request.source)], as: .master)
        }
        try await withServer(clock: clock, cloud: cloud) { (client: any TestClientProtocol) async throws in
            try await clock.untilSleeping(2)  // maintenance and the schedule
            clock.advance(by: .seconds(3600))
            try await waitUntil { try await call(client, .get, "/parse/classes/Nightly", master: true).json["results"]?.arrayValue?.count == 1 }
            let runs = try await call(client, .get, "/parse/classes/_JobStatus", master: true).json["results"]?.arrayValue ?? []
            #expect(runs.first?["source"] == "schedule")
        }
    }

    /// A graceful stop cancels the runs still going and records them as failed.
    @Test func shutdownStopsRunningJobs() async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        var cloud = CloudCode()
        cloud.job("forever") { _ in try await Task.sleep(for: .seconds(3600)) }
        var logger = Logger(label: "jobs")
        logger.logLevel = .critical
        let objects = Objects(store: opened.store, config: ServicesConfiguration(), clock: WallClock())
        let runner = JobRunner(cloud.handlers, objects: objects, clock: WallClock(), logger: logger)
        let group = ServiceGroup(services: [runner], logger: logger)
        let running = Task { try await group.run() }
        let id = try await runner.start("forever", params: [:])
        await group.triggerGracefulShutdown()
        try await running.value
        let status = try await objects.get(.jobStatus, objectId: id, params: [:], principal: .master)
        #expect(status["status"] == "failed")
        #expect(status["message"] == "Stopped: the server shut down.")
        await opened.close()
    }
}
