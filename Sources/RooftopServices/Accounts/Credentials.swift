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

    /// What is wrong with a password, so pages can say it in the visitor's language.
    public enum Problem: Sendable, Equatable {
        /// Empty.
        case missing
        /// Shorter than the minimum (characters).
        case tooShort(minimum: Int)
        /// Longer than bcrypt's 72 bytes.
        case tooLong(maximumBytes: Int)
        /// Contains NUL, which C-string APIs would cut at.
        case invalidCharacter

        /// The API's error (142, or 201 when missing), in English as Parse's messages are.
        public var error: ParseError {
            switch self {
            case .missing: ParseError(.passwordMissing, "password is required.")
            case .tooShort(let minimum): ParseError(.validationError, "Password must be at least \(minimum) characters long.")
            case .tooLong(let maximum): ParseError(.validationError, "Password must be at most \(maximum) bytes long.")
            case .invalidCharacter: ParseError(.validationError, "Password must not contain NUL characters.")
            }
        }
    }

    /// The first rule `password` breaks, if any.
    public static func problem(_ password: String, minLength: Int) -> Problem? {
        if password.isEmpty { return .missing }
        if password.count < minLength { return .tooShort(minimum: minLength) }
        if password.utf8.count > maxBytes { return .tooLong(maximumBytes: maxBytes) }
        if password.utf8.contains(0) { return .invalidCharacter }
        return nil
    }

    /// Checks length bounds and refuses NUL bytes: 142 (201 when empty).
    public static func check(_ password: String, minLength: Int) throws(ParseError) {
        if let problem = problem(password, minLength: minLength) { throw problem.error }
    }
}
