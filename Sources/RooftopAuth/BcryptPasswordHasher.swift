import HummingbirdBcrypt
import NIOPosix
public import RooftopServices

/// bcrypt on NIO's blocking-work thread pool (one thread per core), so hashing never runs on
/// an event loop or a Swift cooperative thread and a login storm queues instead of starving
/// every other request.
public struct BcryptPasswordHasher: PasswordHasher {
    /// log2 of the work factor (Parse Server uses 10).
    public let cost: UInt8
    /// A valid hash no password produces in practice, for constant-time unknown-user logins.
    public let dummyHash: String

    /// Creates a hasher; `cost` must be 4...31.
    public init(cost: UInt8 = 10) {
        let clamped = min(max(cost, 4), 31)
        self.cost = clamped
        self.dummyHash = Bcrypt.hash("rooftop-dummy-password-\(UInt64.random(in: .min ... .max))", cost: clamped)
    }

    /// Hashes on the thread pool; `$2b$` hashes.
    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies `$2a$`, `$2b$` and `$2y$` hashes (those Parse Server stored) on the thread pool.
    public func verify(_ password: String, hash: String) async -> Bool {
        // The C code knows $2a$/$2b$; $2y$ is the same algorithm under PHP's name.
        let normalized = hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
        return (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: normalized) }) ?? false
    }
}
