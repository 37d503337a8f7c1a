#if os(Linux)
    import Glibc
    @testable import RooftopCrypto
    import Testing

    /// Password hashing runs below the priority of the threads that serve requests.
    @Suite struct HashingThreadsTests {
        static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

        @Test func hashingThreadsRunAtALowerPriorityThanTheCaller() async throws {
            let caller = Self.niceness()
            let hashing = try await HashingThreads.run { Self.niceness() }
            #expect(hashing == max(caller, HashingThreads.niceness))
            #expect(hashing > 0)
            // Only the hashing thread changed: the caller's priority is its own.
            #expect(Self.niceness() == caller)
            // A real hash goes through the same threads and still verifies.
            let hasher = BcryptPasswordHasher(cost: 4)
            #expect(await hasher.verify("correct horse", hash: try await hasher.hash("correct horse")))
        }
    }
#endif
