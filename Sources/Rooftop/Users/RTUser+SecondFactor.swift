import Foundation
import RooftopCore

/// A second factor: TOTP codes (what authenticator apps show: 6 digits, 30 seconds) asked at
/// every login after the password. Each call acts with this user's own session, so it works
/// for any user signed in on this device, current or not.
///
/// ```swift
/// let enrollment = try await user.enrollSecondFactor()  // show enrollment.uri as a QR code
/// let recoveryCodes = try await user.confirmSecondFactor(code: "123456")  // show them once
/// try await RTUser.logIn(username: "ana", password: "correct horse", code: "654321")
/// ```
extension RTUser {
    /// Starts adding a second factor: the server makes a secret and answers it with its
    /// `otpauth://` URI for an authenticator app. Nothing changes until
    /// `confirmSecondFactor(code:)` (within 10 minutes); logins need no code before that.
    ///
    /// - Parameter currentCode: when a factor is already enabled, a code of it (or a recovery
    ///   code) to replace it; nil otherwise. The old factor stays in force until the new one is
    ///   confirmed.
    public func enrollSecondFactor(currentCode: String? = nil) async throws -> RTSecondFactorEnrollment {
        let body: JSON = currentCode.map { ["token": .string($0)] } ?? [:]
        return try RTSecondFactorEnrollment(try await secondFactorRequest("POST", "/enroll", body: body))
    }

    /// Turns the enrolled second factor on with the first `code` the authenticator app shows;
    /// from now on logins need a code. Returns the ten recovery codes, each good once in place
    /// of a code: show them to the user once, they cannot be read again. A factor enabled
    /// before is replaced and its recovery codes voided.
    @discardableResult
    public func confirmSecondFactor(code: String) async throws -> [String] {
        try Self.recoveryCodes(try await secondFactorRequest("POST", "/confirm", body: ["token": .string(code)]))
    }

    /// Turns the second factor off, with a code from the authenticator app or a recovery code;
    /// logins need only the password again.
    public func disableSecondFactor(code: String) async throws {
        _ = try await secondFactorRequest("POST", "/disable", body: ["token": .string(code)])
    }

    /// Ten new recovery codes, with a code from the authenticator app (or a recovery code); the
    /// old ones stop working.
    @discardableResult
    public func regenerateRecoveryCodes(code: String) async throws -> [String] {
        try Self.recoveryCodes(try await secondFactorRequest("POST", "/recovery", body: ["token": .string(code)]))
    }

    /// Whether this user's logins need a code, and how many recovery codes are left.
    public func secondFactorStatus() async throws -> RTSecondFactorStatus {
        try RTSecondFactorStatus(try await secondFactorRequest("GET", "", body: nil))
    }

    /// Logs in a user with a second factor: the password, and the `code` the authenticator app
    /// shows (or one of the user's recovery codes). The user becomes current. A wrong or reused
    /// code fails with ``RTError/isInvalidSecondFactorCode`` and opens no session.
    @discardableResult
    public static func logIn(username: String, password: String, code: String) async throws -> RTUser {
        try await logIn(username: username, email: nil, password: password, secondFactorCode: code)
    }

    /// Logs in by username or email address (either may be nil) with the password and the
    /// second factor's `code` (or a recovery code); the user becomes current.
    @discardableResult
    public static func logIn(username: String?, email: String?, password: String, code: String) async throws -> RTUser {
        try await logIn(username: username, email: email, password: password, secondFactorCode: code)
    }

    /// `/users/me/mfa` + `action`, sent with this user's session; a user not signed in on this
    /// device fails with 209 before anything is sent.
    private func secondFactorRequest(_ method: String, _ action: String, body: JSON?) async throws -> JSON {
        let client = try RTClient.current()
        guard isDeviceAccount, !isLazy else {
            throw RTError(.invalidSessionToken, "This user is not signed in on this device: log in first.")
        }
        return try await client.send(APIRequest(method: method, path: "/users/me/mfa" + action, body: body), as: self)
    }

    private static func recoveryCodes(_ answer: JSON) throws(RTError) -> [String] {
        guard let codes = answer["recovery"]?.arrayValue?.compactMap(\.stringValue), !codes.isEmpty else {
            throw RTError(.invalidJSON, "The server's answer has no recovery codes.")
        }
        return codes
    }
}
