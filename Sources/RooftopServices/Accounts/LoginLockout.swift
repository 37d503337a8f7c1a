import RooftopCore
import RooftopStorage

/// Account lockout (Parse's `accountLockout`): failed logins counted per user, and the lock
/// that refuses logins for a while once they reach the threshold. Does nothing when off.
struct LoginLockout: Sendable {
    /// The rule; nil = off.
    let rule: AccountsConfiguration.Lockout?
    /// The server's own writes of the count and the lock.
    let server: AsServer
    /// Reads the count back after a failure.
    let directory: UserDirectory
    /// Records each lock.
    let audit: AuditLog
    /// Now, for the lock's expiry.
    let clock: any ServerClock

    /// Parse's message for a locked account (101, HTTP 404).
    func lockedError(_ lockout: AccountsConfiguration.Lockout) -> ParseError {
        let minutes = max(1, (lockout.duration + 59) / 60)
        return ParseError(
            .objectNotFound, "Your account is locked due to multiple failed login attempts. Please try again after \(minutes) minute(s)")
    }

    /// Counts this attempt before the password is checked: one atomic increment of
    /// `_failed_login_count`. An attempt numbered past the threshold is refused without running
    /// bcrypt, and starts (or keeps) the lock; an expired lock starts a fresh count.
    func takeTicket(_ user: StoredObject, origin: RequestOrigin) async throws {
        guard let lockout = rule else { return }
        let now = Double(clock.now().millisecondsSince1970)
        if let until = user.fields[InternalField.lockoutExpiresAt.rawValue]?.numberValue {
            if now < until { throw lockedError(lockout) }
            // The lock is over: a fresh count. (Two attempts racing here both reset; each still
            // takes a ticket below, so the new count stays exact.)
            try await reset(user.objectId)
        }
        var write = ObjectWrite()
        write.operations = [(FieldPath(field: .internal(.failedLoginCount)), .increment(1))]
        let outcome = try await server.write([
            AsServer.update(.user, user.objectId, at: clock.now(), write)
        ])
        guard case .updated(_, let echo)? = outcome.first, let ticket = echo[InternalField.failedLoginCount.rawValue]?.numberValue else { return }
        if Int(ticket) > lockout.threshold {
            try await lock(user.objectId, now: now, lockout: lockout, origin: origin)
            throw lockedError(lockout)
        }
    }

    /// After the password check: success clears the count; the failure that reaches the
    /// threshold locks the account.
    func settleTicket(_ user: StoredObject, succeeded: Bool, origin: RequestOrigin) async throws {
        guard let lockout = rule else { return }
        if succeeded {
            try await reset(user.objectId)
            return
        }
        // The fresh count decides: read it back (it may have moved since this attempt's ticket).
        let current = try await directory.user(user.objectId)
        let count = Int(current?.fields[InternalField.failedLoginCount.rawValue]?.numberValue ?? 0)
        if count >= lockout.threshold, current?.fields[InternalField.lockoutExpiresAt.rawValue] == nil {
            try await lock(user.objectId, now: Double(clock.now().millisecondsSince1970), lockout: lockout, origin: origin)
        }
    }

    /// Locks `userId` for `lockout.duration` from `now` (milliseconds), recorded in the audit log.
    func lock(_ userId: String, now: Double, lockout: AccountsConfiguration.Lockout, origin: RequestOrigin) async throws {
        await audit.record(.lockout, userId: userId, origin: origin)
        var write = ObjectWrite()
        write.operations = [(FieldPath(field: .internal(.lockoutExpiresAt)), .set(.number(now + Double(lockout.duration) * 1000)))]
        try await server.write([
            AsServer.update(.user, userId, at: clock.now(), write)
        ])
    }

    /// Clears the count and any lock.
    func reset(_ userId: String) async throws {
        var write = ObjectWrite()
        write.operations = Self.unlockOperations
        try await server.write([
            AsServer.update(.user, userId, at: clock.now(), write)
        ])
    }

    /// The writes that unlock an account.
    static var unlockOperations: [(path: FieldPath, op: FieldOperation)] {
        [(FieldPath(field: .internal(.failedLoginCount)), .set(.number(0))), (FieldPath(field: .internal(.lockoutExpiresAt)), .delete)]
    }
}
