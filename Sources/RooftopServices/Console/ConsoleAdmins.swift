import Foundation
import RooftopCore
package import RooftopStorage

/// An admin's role: `owner` may change things, `read-only` may only look.
package enum ConsoleRole: String, Sendable, CaseIterable, Codable {
    case owner
    case readOnly = "read-only"
}

/// One admin as stored (JSON in `_CONSOLE`, kind `admin`, keyed by name).
package struct ConsoleAdmin: Sendable, Codable, ConsoleRecordValue, Equatable {
    /// The bcrypt hash of the password.
    package var hash: String
    /// What the admin may do.
    package var role: ConsoleRole
    /// The TOTP secret (base32), when the admin signs in with a second factor.
    package var totp: String?
    /// Failed sign-ins since the last success.
    package var failed = 0
    /// Until when (ms since 1970) sign-ins are refused.
    package var lockedUntil: Int64?
    /// The last TOTP step used: a code is good once.
    package var lastStep: Int64?
    /// When the admin was created (ms since 1970).
    package var createdAt: Int64
}

/// The console's admins, apart from the app's users: created and removed on the command line,
/// each with a bcrypt password under the users' password policy, a role and an optional TOTP
/// second factor, and locked out after repeated failures.
package struct ConsoleAdmins: Sendable {
    let store: any ConsoleRecordStore
    let hasher: any PasswordHasher
    /// Mints TOTP secrets and checks codes.
    let codes: any OneTimeCodes
    let policy: PasswordPolicy
    let clock: any ServerClock
    let lockoutThreshold: Int
    let lockoutDuration: Int

    static let kind = "admin"

    /// Creates the admin store.
    package init(
        store: any ConsoleRecordStore, hasher: any PasswordHasher, codes: any OneTimeCodes, policy: PasswordPolicy,
        clock: any ServerClock,
        lockoutThreshold: Int = 5, lockoutDuration: Int = 900
    ) {
        self.store = store
        self.hasher = hasher
        self.codes = codes
        self.policy = policy
        self.clock = clock
        self.lockoutThreshold = lockoutThreshold
        self.lockoutDuration = lockoutDuration
    }

    /// A refused change, with the reason to show.
    package struct Refusal: Error, Sendable, CustomStringConvertible {
        /// Why.
        package var description: String
    }

    /// Whether `name` is acceptable: 1–64 letters, digits, `.`, `_`, `-`, `@`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0)) }
    }

    /// Creates an admin; with `totp`, returns its new secret (raw bytes).
    @discardableResult
    package func create(name: String, password: String, role: ConsoleRole, totp: Bool) async throws -> [UInt8]? {
        guard Self.isValidName(name) else { throw Refusal(description: "an admin name is 1-64 letters, digits, '.', '_', '-' or '@'") }
        if let problem = policy.problem(password, username: name) { throw Refusal(description: problem.error.message) }
        let secret = totp ? codes.newSecret() : nil
        let admin = ConsoleAdmin(
            hash: try await hasher.hash(password), role: role, totp: secret.map(Base32.encode), createdAt: clock.now().millisecondsSince1970)
        guard try await store.insertConsoleRecord(ConsoleRecord(kind: Self.kind, key: name, owner: name, value: try admin.recordText())) else {
            throw Refusal(description: "an admin named \(name) already exists")
        }
        return secret
    }

    /// Whether any admin exists in `store`: with none, `rooftop serve`'s banner and the console's
    /// sign-in page say how to create one.
    package static func exist(in store: any ConsoleRecordStore) async throws -> Bool {
        try await !store.consoleRecords(kind: kind, limit: 1).isEmpty
    }

    /// Whether any admin exists (`exist(in:)`).
    package func exist() async throws -> Bool { try await Self.exist(in: store) }

    /// Every admin, by name.
    package func list() async throws -> [(name: String, admin: ConsoleAdmin)] {
        try await store.consoleRecords(kind: Self.kind, limit: 10_000).compactMap { record in
            (try? ConsoleAdmin(recordText: record.value)).map { (record.key, $0) }
        }
    }

    /// One admin.
    package func admin(_ name: String) async throws -> ConsoleAdmin? {
        guard Self.isValidName(name), let record = try await store.consoleRecord(kind: Self.kind, key: name) else { return nil }
        return try ConsoleAdmin(recordText: record.value)
    }

    /// Deletes an admin and ends their sessions; false when there was none.
    package func delete(_ name: String) async throws -> Bool {
        guard Self.isValidName(name), try await store.deleteConsoleRecord(kind: Self.kind, key: name) else { return false }
        _ = try await store.deleteConsoleRecords(kind: ConsoleSessions.kind, owner: name)
        return true
    }

    /// Sets a new password (policy checked), clears any lock and ends the admin's sessions.
    package func resetPassword(_ name: String, to password: String) async throws {
        if let problem = policy.problem(password, username: name) { throw Refusal(description: problem.error.message) }
        let hash = try await hasher.hash(password)
        try await update(name) { admin in
            admin.hash = hash
            admin.failed = 0
            admin.lockedUntil = nil
        }
        _ = try await store.deleteConsoleRecords(kind: ConsoleSessions.kind, owner: name)
    }

    /// Why a sign-in was refused (the page says the same thing for all but `locked` and
    /// `codeNeeded`).
    package enum SignInFailure: Error, Sendable, Equatable {
        /// Unknown name or wrong password.
        case invalid
        /// Locked by earlier failures.
        case locked
        /// This failure locked the admin.
        case lockedNow
        /// The password was right; the admin has TOTP and sent no code.
        case codeNeeded
        /// A wrong, old or already used code.
        case codeRejected
    }

    /// Checks a sign-in: the password (bcrypt's work is done for unknown names too), the lock,
    /// and the TOTP code, which is good once. Each failure counts towards the lock.
    package func signIn(name: String, password: String, code: String?) async throws -> Result<ConsoleAdmin, SignInFailure> {
        let nowMs = clock.now().millisecondsSince1970
        guard Self.isValidName(name), !password.contains("\u{0}"), let record = try await store.consoleRecord(kind: Self.kind, key: name),
            var admin = try? ConsoleAdmin(recordText: record.value)
        else {
            _ = await hasher.verify(password, hash: hasher.dummyHash)
            return .failure(.invalid)
        }
        if let until = admin.lockedUntil, nowMs < until {
            // The same work as any other answer: a quick "no" would tell that the name is an admin's.
            _ = await hasher.verify(password, hash: admin.hash)
            return .failure(.locked)
        }
        // Counted before bcrypt runs, by compare-and-swap: parallel guesses each take a number.
        var ticket = admin
        if let until = ticket.lockedUntil, nowMs >= until {
            ticket.lockedUntil = nil
            ticket.failed = 0
        }
        ticket.failed += 1
        if ticket.failed >= lockoutThreshold { ticket.lockedUntil = nowMs + Int64(lockoutDuration) * 1000 }
        guard
            try await store.replaceConsoleRecord(kind: Self.kind, key: name, expected: record.value, value: try ticket.recordText(), expiresAt: .max)
        else { return .failure(.invalid) }
        let counted = try ticket.recordText()
        guard await hasher.verify(password, hash: admin.hash) else {
            return .failure(ticket.lockedUntil != nil ? .lockedNow : .invalid)
        }
        if ticket.lockedUntil != nil && ticket.failed > lockoutThreshold { return .failure(.locked) }
        admin = ticket
        if let text = admin.totp {
            // A stored secret that does not decode refuses the sign-in: the second factor never
            // steps aside.
            guard let secret = Base32.decode(text), !secret.isEmpty else { return .failure(.codeRejected) }
            guard let code, !code.isEmpty else { return .failure(.codeNeeded) }
            guard let step = codes.matchingStep(secret: secret, code: code, atSeconds: nowMs / 1000), step > (admin.lastStep ?? .min) else {
                return .failure(.codeRejected)
            }
            admin.lastStep = step
        }
        admin.failed = 0
        admin.lockedUntil = nil
        // The step is spent in the same swap: a replayed code loses the race or finds it spent.
        guard try await store.replaceConsoleRecord(kind: Self.kind, key: name, expected: counted, value: try admin.recordText(), expiresAt: .max)
        else { return .failure(.codeRejected) }
        return .success(admin)
    }

    /// Changes one admin by compare-and-swap, retrying when another change came first.
    func update(_ name: String, _ change: (inout ConsoleAdmin) -> Void) async throws {
        for _ in 0..<10 {
            guard let record = try await store.consoleRecord(kind: Self.kind, key: name) else { throw Refusal(description: "no admin named \(name)") }
            var admin = try ConsoleAdmin(recordText: record.value)
            change(&admin)
            if try await store.replaceConsoleRecord(
                kind: Self.kind, key: name, expected: record.value, value: try admin.recordText(), expiresAt: .max)
            {
                return
            }
        }
        throw Refusal(description: "the admin kept changing; try again")
    }
}
