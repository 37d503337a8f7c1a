import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import RooftopServices

#if canImport(Glibc)
    import Glibc
#endif

/// bcrypt on its own threads (`HashingThreads`: one per core, at a lower priority), so hashing never runs on
/// an event loop or a Swift cooperative thread and a login storm queues instead of starving
/// every other request.
///
/// bcrypt reads at most 72 bytes. A longer password (a Japanese passphrase of 25 characters
/// already is) is first reduced to base64(SHA-256(password)), 44 bytes, so every byte counts
/// instead of being silently cut (ASVS V6.2.8/V6.2.9). Which form a password takes depends only
/// on its own length, so no marker is stored and hashes stay standard `$2b$` strings.
package struct BcryptPasswordHasher: PasswordHasher {
    /// log2 of the work factor (Parse Server uses 10).
    package let cost: UInt8
    /// A valid hash no password produces in practice, for constant-time unknown-user logins.
    package let dummyHash: String

    /// Creates a hasher; `cost` must be 4...31.
    package init(cost: UInt8 = 10) {
        let clamped = min(max(cost, 4), 31)
        self.cost = clamped
        self.dummyHash = Bcrypt.hash("rooftop-dummy-password-\(UInt64.random(in: .min ... .max))", cost: clamped)
    }

    /// Hashes on the thread pool; `$2b$` hashes.
    /// A password holding NUL is refused: the C code would hash only what comes before it.
    package func hash(_ password: String) async throws -> String {
        if password.utf8.contains(0) { throw PasswordPolicy.Problem.invalidCharacter.error }
        let cost = self.cost
        let input = Self.bcryptInput(password)
        return try await HashingThreads.run { Bcrypt.hash(input, cost: cost) }
    }

    /// The password itself up to 72 bytes, else its SHA-256 in base64.
    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > 72 else { return password }
        return Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// Verifies `$2a$`, `$2b$` and `$2y$` hashes (those Parse Server stored) on the thread pool.
    /// A password holding NUL never matches (the C code would compare only what comes before it).
    package func verify(_ password: String, hash: String) async -> Bool {
        if password.utf8.contains(0) { return false }
        // The C code knows $2a$/$2b$; $2y$ is the same algorithm under PHP's name.
        let normalized = hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
        let input = Self.bcryptInput(password)
        // Hashes imported from Parse (`$2a$`/`$2y$`) of passwords over 72 bytes were made from
        // the first 72 bytes: those still verify as they did there.
        let legacy = password.utf8.count > 72 && !hash.hasPrefix("$2b$")
        return
            (try? await HashingThreads.run {
                Bcrypt.verify(input, hash: normalized) || (legacy && Bcrypt.verify(password, hash: normalized))
            }) ?? false
    }
}

/// The threads bcrypt runs on: one per core, below the priority of the threads that serve
/// requests.
///
/// A login storm keeps every core hashing (about 25 ms a password); at equal priority the
/// kernel time-slices the event loops with it, and a cheap read waits milliseconds for its
/// loop's turn. A little below it (niceness 4: about 40 % of a loop's weight when both want a
/// core) reads keep their latency while logins still get most of what they had, and all of an
/// idle machine (docs/benchmarks.md, "Event loops"). Lowering one's own priority needs no
/// privilege; raising it back would, which is why these threads are not NIO's shared pool.
enum HashingThreads {
    /// The niceness of a hashing thread (the loops stay at the process's, normally 0).
    static let niceness: Int32 = 4

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// Runs `body` on a hashing thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await pool.runIfActive {
            lowerPriority()
            return body()
        }
    }

    /// Lowers the calling thread's priority. On Linux niceness belongs to each thread and
    /// `PRIO_PROCESS` with id 0 names the calling one (setpriority(2), NOTES); elsewhere the call
    /// would change the whole process, so it does nothing there.
    static func lowerPriority() {
        #if os(Linux)
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
