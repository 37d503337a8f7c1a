import Testing

/// Polls `condition` every 10 ms for up to `limit`; fails the test if it never holds.
package func waitUntil(_ limit: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition not met within \(limit)")
}
