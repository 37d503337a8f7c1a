public import RooftopCore
import RooftopServices

/// One run of a background job, as its handler sees it (Parse's `request` in `Cloud.job`).
public struct JobRequest: Sendable {
    /// The job's name.
    public let jobName: String
    /// The parameters it was started with (`POST /jobs/<name>`'s body; none on a schedule).
    public let params: [String: JSON]
    /// How it was started: `api` or `schedule`.
    public let source: String
    /// The objectId of this run's `_JobStatus`.
    public let statusId: String
    /// The database; a job has no caller, so `as: .caller` acts with the master key too.
    public let objects: CloudObjects
    let report: @Sendable (String?, Double?) async -> Void

    init(_ call: JobCall) {
        jobName = call.name
        params = call.params
        source = call.source
        statusId = call.statusId
        objects = CloudObjects(objects: call.objects, caller: .master)
        report = call.report
    }

    /// Records `text` as the run's `message` (Parse's `request.message`), readable while it runs.
    public func message(_ text: String) async { await report(text, nil) }

    /// Records how far the run is, from 0 to 1, as its `progress`.
    public func progress(_ fraction: Double) async { await report(nil, fraction) }
}

extension CloudCode {
    /// Defines the background job `name` (Parse's `Parse.Cloud.job`): started with the master
    /// key by `POST /jobs/<name>`, which answers at once with the run's `_JobStatus` id in
    /// `X-Parse-Job-Status-Id`; the run's `status` becomes `succeeded`, or `failed` with the
    /// message of the `ParseError` it threw (another error's detail goes to the log only).
    ///
    /// - Parameters:
    ///   - timeout: how long one run may take before it is cancelled and marked failed; `nil`
    ///     for no limit (jobs are meant for long work).
    ///   - every: also run it this often, on one node of those sharing the database.
    ///   - handler: the job. On shutdown, runs still going are cancelled and marked failed.
    public mutating func job(
        _ name: String, timeout: Duration? = nil, every: Duration? = nil, _ handler: @escaping @Sendable (JobRequest) async throws -> Void
    ) {
        handlers.jobs[name] = CloudJob(timeout: timeout, every: every) { call in try await handler(JobRequest(call)) }
    }

    /// The names of the jobs defined so far, sorted.
    public var jobNames: [String] { handlers.jobs.keys.sorted() }
}
