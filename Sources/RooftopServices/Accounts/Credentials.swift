public import RooftopCore

/// Hashes and checks passwords (bcrypt in production); slow on purpose, so implementations
/// must run off the event loops and Swift's cooperative threads.
public protocol PasswordHasher: Sendable {
    /// A new salted hash of `password`.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ.
    func verify(_ password: String, hash: String) async -> Bool
    /// A hash that matches no password, verified on unknown-user logins so they cost the same
    /// time as wrong passwords.
    var dummyHash: String { get }
}

/// Session tokens: generated on the wire as `r:` + 32 hex digits, stored only as a digest.
public protocol SessionTokenSource: Sendable {
    /// A new random token.
    func newToken() -> String
    /// The digest stored for `token` (a database leak must not leak sessions).
    func digest(_ token: String) -> String
}

/// Rules every password must follow before it is hashed.
public enum PasswordRules {
    /// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut.
    public static let maxBytes = 72

    /// Checks length bounds and refuses NUL bytes (which C-string APIs would cut at): 142.
    public static func check(_ password: String, minLength: Int) throws(ParseError) {
        guard !password.isEmpty else { throw ParseError(.passwordMissing, "password is required.") }
        guard password.count >= minLength else {
            throw ParseError(.validationError, "Password must be at least \(minLength) characters long.")
        }
        guard password.utf8.count <= maxBytes else {
            throw ParseError(.validationError, "Password must be at most \(maxBytes) bytes long.")
        }
        guard !password.utf8.contains(0) else { throw ParseError(.validationError, "Password must not contain NUL characters.") }
    }
}
