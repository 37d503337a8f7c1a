package import RooftopCore

/// One run of a background job, as its handler sees it.
package struct JobCall: Sendable {
    /// The job's name.
    package var name: String
    /// The parameters it was started with (`POST /jobs/:name`'s body; none for a schedule).
    package var params: [String: JSON]
    /// The run's `_JobStatus` objectId.
    package var statusId: String
    /// How it was started: `api` or `schedule`.
    package var source: String
    /// The object use cases (jobs act with the master key).
    package var objects: Objects
    /// Records a message and/or a progress (0…1) on the run's `_JobStatus`.
    package var report: @Sendable (_ message: String?, _ progress: Double?) async -> Void
}

/// A registered background job.
package struct CloudJob: Sendable {
    /// How long one run may take before it is cancelled and marked failed; nil: no limit.
    package var timeout: Duration?
    /// Run it every this long, on one node of those sharing the database; nil: only on request.
    package var every: Duration?
    /// The handler.
    package var run: @Sendable (JobCall) async throws -> Void

    /// Creates a job.
    package init(timeout: Duration? = nil, every: Duration? = nil, run: @escaping @Sendable (JobCall) async throws -> Void) {
        self.timeout = timeout
        self.every = every
        self.run = run
    }
}
