import NIOConcurrencyHelpers
package import RooftopCore
import RooftopServices

/// A clock that moves only when the test says so: expiries and periodic jobs happen at once on
/// `advance(by:)`, with no wall-clock wait. Its resolution is the millisecond, as `ParseDate`'s.
package final class TestClock: ServerClock {
    private struct Sleeper {
        let deadline: Int64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Int64
        var sleepers: [Int: Sleeper] = [:]
        var nextId = 0
    }

    private let state: NIOLockedValueBox<State>

    /// A clock at `start` milliseconds since 1970 (14 November 2023 by default).
    package init(millisecondsSince1970 start: Int64 = 1_700_000_000_000) {
        state = NIOLockedValueBox(State(now: start))
    }

    /// The test's "now".
    package func now() -> ParseDate { ParseDate(millisecondsSince1970: state.withLockedValue { $0.now }) }

    /// How many tasks sleep on this clock (for a test to wait until a job is waiting again).
    package var sleeping: Int { state.withLockedValue { $0.sleepers.count } }

    /// Moves time forward and wakes every sleeper whose time has come.
    package func advance(by duration: Duration) {
        let woken = state.withLockedValue { state -> [Sleeper] in
            state.now += duration.milliseconds
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once the test has advanced the clock by `duration`.
    package func sleep(for duration: Duration) async throws {
        let id = state.withLockedValue { state -> Int in
            state.nextId += 1
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLockedValue { state -> Bool in
                    let deadline = state.now + duration.milliseconds
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Waits until `count` tasks sleep on this clock — a periodic job that has finished its round
    /// and waits for the next; fails after 10 s of real time.
    package func untilSleeping(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while sleeping < count {
            guard ContinuousClock.now < deadline else { throw TestClockTimeout(waitingFor: count) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// No task came to sleep on a `TestClock` in time.
package struct TestClockTimeout: Error {
    /// How many sleepers were awaited.
    package let waitingFor: Int
}
