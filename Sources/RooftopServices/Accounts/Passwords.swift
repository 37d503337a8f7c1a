import RooftopCore
import RooftopStorage

/// Password hashing and the password policy: what a new password may not be (the policy's rules,
/// the context words, the last few passwords), how a hash is made and checked, and how a new one
/// is stored with its history.
struct Passwords: Sendable {
    /// Hashes and verifies (bcrypt in production).
    let hasher: any PasswordHasher
    /// The rules for new passwords.
    let policy: PasswordPolicy
    /// The configured context words, then the app's name and id when mail is configured.
    let appWords: [String]
    /// Now, for a password's age.
    let clock: any ServerClock

    /// Hashing with `hasher` under `config`'s policy; `mail` adds the app's name and id to the
    /// words no password may be.
    init(hasher: any PasswordHasher, config: AccountsConfiguration, mail: AccountMail?, clock: any ServerClock) {
        self.hasher = hasher
        self.policy = config.passwordPolicy
        var words = config.contextWords
        if let mail { words += [mail.appName, mail.appId] }
        self.appWords = words
        self.clock = clock
    }

    /// The first policy rule `password` breaks for `user` (`nil` for a new user), reuse of the
    /// last `maxPasswordHistory` passwords included.
    func problem(
        _ password: String, for user: StoredObject?, username: String? = nil, email: String? = nil
    ) async throws -> PasswordPolicy.Problem? {
        let name = username ?? user?.fields["username"]?.stringValue
        let address = email ?? user?.fields["email"]?.stringValue
        if let problem = policy.problem(password, username: name, context: contextWords(email: address)) { return problem }
        guard policy.maxPasswordHistory > 0, let user else { return nil }
        for hash in Self.recentHashes(of: user, count: policy.maxPasswordHistory) where await matches(password, hash: hash) {
            return .reused(count: policy.maxPasswordHistory)
        }
        return nil
    }

    /// NIST SP 800-63B's context-specific words besides the username: the email address and its
    /// local part, the app's name and its application id.
    func contextWords(email: String?) -> [String] {
        var words = appWords
        if let email {
            words.append(email)
            if let at = email.firstIndex(of: "@") { words.append(String(email[..<at])) }
        }
        return words.filter { !$0.isEmpty }
    }

    /// A new hash of the password's NFC form.
    func hash(_ password: String) async throws -> String {
        try await hasher.hash(AccountInput.normalizedPassword(password))
    }

    /// Whether `password` matches `hash`: its NFC form, then (for hashes made before passwords
    /// were normalized) the form as typed, when the two differ.
    func matches(_ password: String, hash: String) async -> Bool {
        let normalized = AccountInput.normalizedPassword(password)
        if await hasher.verify(normalized, hash: hash) { return true }
        // Swift's `==` is canonical equivalence (NFC == NFD): compare the bytes.
        guard !normalized.utf8.elementsEqual(password.utf8) else { return false }
        return await hasher.verify(password, hash: hash)
    }

    /// The current hash and the earlier ones kept in `_password_history`, newest first.
    static func recentHashes(of user: StoredObject, count: Int) -> [String] {
        let current = user.fields[InternalField.hashedPassword.rawValue]?.stringValue.map { [$0] } ?? []
        let history = user.fields[InternalField.passwordHistory.rawValue]?.arrayValue?.compactMap(\.stringValue) ?? []
        return Array((current + history).prefix(count))
    }

    /// The writes that store a new hash: the hash, when it changed, and the history (the
    /// previous hash in front, as many kept as the policy needs).
    func operations(hash: String, replacing user: StoredObject?, now: ParseDate) throws -> [(path: FieldPath, op: FieldOperation)] {
        var operations: [(path: FieldPath, op: FieldOperation)] = [
            (FieldPath(field: .internal(.hashedPassword)), .set(.string(hash))),
            (FieldPath(field: .internal(.passwordChangedAt)), .set(.number(Double(now.millisecondsSince1970)))),
        ]
        let keep = policy.maxPasswordHistory - 1
        if keep > 0, let user {
            let previous = Self.recentHashes(of: user, count: keep).map(JSON.string)
            operations.append((FieldPath(field: .internal(.passwordHistory)), .set(.array(previous))))
        }
        return operations
    }

    /// Parse's 101 for a password older than `maxPasswordAge` days: the user must reset it.
    func checkAge(_ user: StoredObject) throws(ParseError) {
        guard let days = policy.maxPasswordAge, days > 0,
            let changed = user.fields[InternalField.passwordChangedAt.rawValue]?.numberValue
        else { return }
        if Double(clock.now().millisecondsSince1970) > changed + Double(days) * 86_400_000 {
            throw ParseError(.objectNotFound, "Your password has expired. Please reset your password.")
        }
    }
}
