package import RooftopCore

/// Hashes and checks passwords (bcrypt in production); slow on purpose, so implementations
/// must run off the event loops and Swift's cooperative threads.
package protocol PasswordHasher: Sendable {
    /// A new salted hash of `password`.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ.
    func verify(_ password: String, hash: String) async -> Bool
    /// A hash that matches no password, verified on unknown-user logins so they cost the same
    /// time as wrong passwords.
    var dummyHash: String { get }
}

/// Session tokens: generated on the wire as `r:` + 32 hex digits, stored only as a digest.
package protocol SessionTokenSource: Sendable {
    /// A new random token.
    func newToken() -> String
    /// The digest stored for `token` (a database leak must not leak sessions).
    func digest(_ token: String) -> String
    /// A new random secret of 256 bits as 43 base64url characters (PKCE verifiers, `state`,
    /// `nonce`, the browser sign-in's app codes).
    func newSecret() -> String
    /// PKCE's S256 challenge of `verifier`: base64url, unpadded, of its SHA-256 (RFC 7636).
    func pkceChallenge(_ verifier: String) -> String
    /// A single-use secret for a link a person opens (reset, verification): 32 characters of
    /// base62 (190 bits), which survive any mail client's line wrapping and URL handling.
    func newLinkToken() -> String
    /// The unguessable prefix of a stored file's name: 32 lowercase hex digits (128 bits).
    func newFilePrefix() -> String
}

/// Time-based one-time codes (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps), minted and
/// checked where the crypto lives; the use cases keep the secrets and the last step spent.
package protocol OneTimeCodes: Sendable {
    /// A new random secret (160 bits).
    func newSecret() -> [UInt8]
    /// The step within one of `now`'s (RFC 6238 §5.2's allowance for drift) whose code is
    /// `code`, compared in constant time; nil when none is.
    func matchingStep(secret: [UInt8], code: String, atSeconds now: Int64) -> Int64?
    /// A new recovery code: 120 random bits as six groups of four base32 letters and digits.
    func newRecoveryCode() -> String
}

/// Seals secrets the server must read back but never store in plain text (a second factor's
/// TOTP secret), made by the crypto target.
package protocol SecretSealing: Sendable {
    /// `plaintext` sealed under the current key.
    func seal(_ plaintext: [UInt8]) throws -> String
    /// The plaintext of `sealed`, and whether it was sealed under the current key; nil when it
    /// was changed or its key is gone.
    func open(_ sealed: String) -> (plaintext: [UInt8], current: Bool)?
}

/// The rules a new password must follow before it is hashed (Parse's `passwordPolicy`, NIST SP
/// 800-63B rev 4 style: length and a blocklist, no composition rules unless the operator adds a
/// pattern). Reuse of earlier passwords is checked by the account use cases, which hold the
/// hashes.
package struct PasswordPolicy: Sendable {
    /// Shortest password accepted, in characters.
    package var minLength = 8
    /// Longest password accepted, in characters (at least 64: ASVS V6.2.9). Longer than bcrypt's
    /// 72 bytes is fine: such passwords are pre-hashed, never cut.
    package var maxLength = 256
    /// A regular expression every new password must match (Parse: `validatorPattern`).
    package var pattern: String?
    /// The message for a pattern mismatch (Parse: `validationError`).
    package var patternMessage = "Password does not meet the Password Policy requirements."
    /// Refuse passwords containing the username (Parse: `doNotAllowUsername`).
    package var doNotAllowUsername = false
    /// Refuse the 10,000 most common passwords (on by default).
    package var refuseCommonPasswords = true
    /// How many earlier passwords may not be reused, 0–20 (Parse: `maxPasswordHistory`).
    package var maxPasswordHistory = 0
    /// Days after which login asks for a reset (Parse: `maxPasswordAge`); nil = never.
    package var maxPasswordAge: Int?

    /// Creates the defaults.
    package init() {}

    /// What is wrong with a password, so pages can say it in the visitor's language.
    package enum Problem: Sendable, Equatable {
        /// Empty.
        case missing
        /// Shorter than the minimum (characters).
        case tooShort(minimum: Int)
        /// Longer than the maximum (characters).
        case tooLong(maximum: Int)
        /// Contains NUL, which C-string APIs would cut at.
        case invalidCharacter
        /// Does not match the operator's pattern; the operator's message.
        case pattern(message: String)
        /// Contains the username.
        case containsUsername
        /// Is the email address, its local part, or the app's name or id (NIST's
        /// context-specific words besides the username).
        case contextWord
        /// On the list of common passwords.
        case common
        /// The same as one of the last `count` passwords.
        case reused(count: Int)

        /// The API's error (142, or 201 when missing), in English as Parse's messages are.
        package var error: ParseError {
            switch self {
            case .missing: ParseError(.passwordMissing, "password is required.")
            case .tooShort(let minimum): ParseError(.validationError, "Password must be at least \(minimum) characters long.")
            case .tooLong(let maximum): ParseError(.validationError, "Password must be at most \(maximum) characters long.")
            case .invalidCharacter: ParseError(.validationError, "Password must not contain NUL characters.")
            case .pattern(let message): ParseError(.validationError, message)
            case .containsUsername: ParseError(.validationError, "Password cannot contain your username.")
            case .contextWord: ParseError(.validationError, "Password cannot be your email address or the name of this app.")
            case .common: ParseError(.validationError, "This password is too common: choose one that is harder to guess.")
            case .reused(let count): ParseError(.validationError, "New password should not be the same as last \(count) passwords.")
            }
        }
    }

    /// The first rule `password` breaks, if any. Length is checked first, so a 10,000-character
    /// input costs one count and nothing else.
    ///
    /// `context` holds NIST SP 800-63B's context-specific words besides the username (the email
    /// address and its local part, the app's name and id): a password that is one of them, or
    /// one of them with digits and symbols around it (`Rooftop2024!`), is refused whatever
    /// `doNotAllowUsername` says. The username itself is refused the same way.
    package func problem(_ password: String, username: String?, context: [String] = []) -> Problem? {
        if password.isEmpty { return .missing }
        let length = password.count
        if length < minLength { return .tooShort(minimum: minLength) }
        if length > maxLength { return .tooLong(maximum: maxLength) }
        if password.utf8.contains(0) { return .invalidCharacter }
        // As Parse (JavaScript's `test`): the pattern must match somewhere in the password.
        if let pattern, let regex = try? Regex(pattern), password.firstMatch(of: regex) == nil { return .pattern(message: patternMessage) }
        let core = Self.contextCore(password)
        if let username, !username.isEmpty, Self.contextCore(username) == core { return .containsUsername }
        if doNotAllowUsername, let username, !username.isEmpty, password.lowercased().contains(username.lowercased()) { return .containsUsername }
        if !core.isEmpty, context.contains(where: { Self.contextCore($0) == core }) { return .contextWord }
        if refuseCommonPasswords, CommonPasswords.set.contains(password.lowercased()) { return .common }
        return nil
    }

    /// A word as it is compared with context-specific words: lowercased, without the digits,
    /// symbols and spaces around it (the usual derivations that keep it guessable).
    static func contextCore(_ text: String) -> String {
        let lowered = text.lowercased()
        let isCore: (Character) -> Bool = { $0.isLetter }
        guard let first = lowered.firstIndex(where: isCore), let last = lowered.lastIndex(where: isCore) else { return lowered }
        return String(lowered[first...last])
    }

    /// Throws the API's error for the first broken rule.
    package func check(_ password: String, username: String?, context: [String] = []) throws(ParseError) {
        if let problem = problem(password, username: username, context: context) { throw problem.error }
    }
}
