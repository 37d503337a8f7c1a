package import Logging
package import RooftopCore
import RooftopStorage
import ServiceLifecycle

/// Runs background jobs (`POST /jobs/:name` and schedules) and records each run in `_JobStatus`
/// (Parse's class: `jobName`, `source`, `status` running/succeeded/failed, `message`, `params`,
/// `finishedAt`; and Rooftop's `progress`, 0…1).
///
/// A run outlives the request that started it; on graceful shutdown every run still going is
/// cancelled and recorded as failed before the database closes. A schedule runs on one node of
/// those sharing a database each interval (`DataStore.claimJob`).
package final class JobRunner: Service, Sendable {
    let jobs: [String: CloudJob]
    let objects: Objects
    let clock: any ServerClock
    let logger: Logger
    private let running = LockedValue([String: Task<Void, Never>]())

    /// The jobs of `handlers`.
    package init(_ handlers: CloudHandlers, objects: Objects, clock: any ServerClock, logger: Logger) {
        jobs = handlers.jobs
        self.objects = objects
        self.clock = clock
        self.logger = logger
    }

    /// The names of the registered jobs, sorted.
    package var names: [String] { jobs.keys.sorted() }

    /// Starts job `name` in the background: the id of its `_JobStatus`, written before this
    /// returns. 141 "Invalid job." for a name nothing registered, as Parse.
    package func start(_ name: String, params: [String: JSON], source: String = "api") async throws -> String {
        guard let job = jobs[name] else { throw ParseError(.scriptFailed, "Invalid job.") }
        let statusId = ObjectId.generate(length: 10)
        let fields: [String: JSON] = [
            "jobName": .string(name), "source": .string(source), "status": "running", "params": .object(params), "progress": 0,
        ]
        try await write(.insert(statusId, fields))
        let call = JobCall(name: name, params: params, statusId: statusId, source: source, objects: objects) { [self] message, progress in
            var changes: [String: JSON] = [:]
            if let message { changes["message"] = .string(String(message.prefix(4096))) }
            if let progress { changes["progress"] = .number(min(max(progress, 0), 1)) }
            if !changes.isEmpty { try? await write(.update(statusId, changes)) }
        }
        // Registered under the lock the run's end takes too, so a run that ends at once is
        // still removed.
        running.withLock { runs in
            runs[statusId] = Task { [self] in
                // A run has no caller: not the request that started it (its headers, address);
                // these are the server's own use cases (`RequestOrigin.server`).
                await finish(statusId, name: name, outcome: await outcome(of: job, call))
            }
        }
        return statusId
    }

    /// Runs one job to its end (or its limit, or shutdown).
    func outcome(of job: CloudJob, _ call: JobCall) async -> Result<Void, any Error> {
        do {
            if let limit = job.timeout {
                try await BoundedRun.run(
                    "job \(call.name)", limit: limit, clock: clock, logger: logger, failure: ParseError(.scriptFailed, "The job failed.")
                ) { try await job.run(call) }
            } else {
                try await job.run(call)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Records how a run ended.
    func finish(_ statusId: String, name: String, outcome: Result<Void, any Error>) async {
        var changes: [String: JSON] = ["finishedAt": ["__type": "Date", "iso": .string(clock.now().iso)]]
        switch outcome {
        case .success:
            changes["status"] = "succeeded"
            changes["progress"] = 1
        case .failure(let error) where error is CancellationError || Task.isCancelled:
            changes["status"] = "failed"
            changes["message"] = "Stopped: the server shut down."
        case .failure(let error as ParseError):
            changes["status"] = "failed"
            changes["message"] = .string(error.message)
        case .failure(let error):
            logger.error("job \(name) failed: \(String(reflecting: error))")
            changes["status"] = "failed"
            changes["message"] = "The job failed."
        }
        do {
            // In a task of its own: a run stopped by shutdown is a cancelled task, and the
            // database refuses a cancelled task's statements.
            try await Task { [changes] in try await write(.update(statusId, changes)) }.value
        } catch {
            logger.error("job \(name) ended but its status could not be written: \(error)")
        }
        _ = running.withLock { $0.removeValue(forKey: statusId) }
    }

    /// Waits for every run in flight (tests, and the stop).
    package func waitForRuns() async {
        for task in running.withLock({ Array($0.values) }) { await task.value }
    }

    /// Runs the schedules until graceful shutdown, then cancels the runs in flight and waits for
    /// their status to be written.
    package func run() async throws {
        let scheduled = jobs.compactMap { name, job in job.every.map { (name, $0) } }
        await withTaskGroup(of: Void.self) { group in
            for (name, every) in scheduled {
                group.addTask { [self] in
                    try? await cancelWhenGracefulShutdown {
                        while !Task.isCancelled {
                            try await self.clock.sleep(for: every)
                            await self.tick(name, every: every)
                        }
                    }
                }
            }
            group.addTask { try? await gracefulShutdown() }
            await group.waitForAll()
        }
        for task in running.withLock({ Array($0.values) }) { task.cancel() }
        // A job that ignores its cancellation must not hold the stop (and the database) for
        // ever: its status stays `running`.
        // (A task group would wait for its waiting child anyway; the race leaves it behind.)
        if case .timedOut = await BoundedRun.race(limit: .seconds(10), clock: clock, { [self] in await waitForRuns() }) {
            logger.warning("jobs still running 10 s after they were cancelled; stopping without them")
        }
    }

    /// One scheduled round of `name`, if this node claims it.
    func tick(_ name: String, every: Duration) async {
        do {
            guard try await objects.store.claimJob("job:" + name, every: every.milliseconds, now: clock.now().millisecondsSince1970) else { return }
            _ = try await start(name, params: [:], source: "schedule")
        } catch {
            logger.error("scheduled job \(name) could not start: \(error)")
        }
    }

    enum StatusWrite {
        case insert(String, [String: JSON])
        case update(String, [String: JSON])
    }

    private func write(_ change: StatusWrite) async throws {
        let className = ClassName.jobStatus
        let grant = SchemaGrant(createClass: true, addFields: true)
        switch change {
        case .insert(let id, let fields):
            let write = try ObjectWrite(body: fields.merging(["ACL": [:]]) { $1 }, isCreate: true)
            _ = try await objects.store.write([.insert(className: className, objectId: id, at: objects.clock.now(), write: write, grant: grant)])
        case .update(let id, let fields):
            let write = try ObjectWrite(body: fields, isCreate: false)
            _ = try await objects.store.write([
                .update(className: className, objectId: id, at: objects.clock.now(), write: write, access: .master, grant: grant)
            ])
        }
    }
}
