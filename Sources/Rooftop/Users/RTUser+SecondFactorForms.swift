public import Foundation

/// The completion-handler and blocking forms of `RTUser`'s second-factor calls.
extension RTUser {
    /// `enrollSecondFactor(currentCode:)` in the background; `block` gets the secret and its URI.
    public func enrollSecondFactorInBackground(
        currentCode: String? = nil, block: (@Sendable (RTSecondFactorEnrollment?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await self.enrollSecondFactor(currentCode: currentCode) }
    }

    /// `confirmSecondFactor(code:)` in the background; `block` gets the recovery codes.
    public func confirmSecondFactorInBackground(code: String, block: (@Sendable ([String]?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.confirmSecondFactor(code: code) }
    }

    /// `disableSecondFactor(code:)` in the background; `block` gets whether it succeeded.
    public func disableSecondFactorInBackground(code: String, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.disableSecondFactor(code: code) }
    }

    /// `regenerateRecoveryCodes(code:)` in the background; `block` gets the new recovery codes.
    public func regenerateRecoveryCodesInBackground(code: String, block: (@Sendable ([String]?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.regenerateRecoveryCodes(code: code) }
    }

    /// `secondFactorStatus()` in the background.
    public func secondFactorStatusInBackground(block: (@Sendable (RTSecondFactorStatus?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.secondFactorStatus() }
    }

    /// `logIn(username:password:code:)` in the background.
    public static func logInWithUsernameInBackground(
        _ username: String, password: String, code: String, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(username: username, password: password, code: code) }
    }

    /// `logIn(username:email:password:code:)` in the background.
    public static func logInInBackground(
        username: String?, email: String?, password: String, code: String, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(username: username, email: email, password: password, code: code) }
    }

    /// `enrollSecondFactor(currentCode:)`, blocking the calling thread.
    @available(*, noasync, message: "use the async enrollSecondFactor(currentCode:)")
    public func enrollSecondFactor(currentCode: String? = nil) throws -> RTSecondFactorEnrollment {
        try Callback.wait { try await self.enrollSecondFactor(currentCode: currentCode) }
    }

    /// `confirmSecondFactor(code:)`, blocking the calling thread.
    @available(*, noasync, message: "use the async confirmSecondFactor(code:)")
    @discardableResult
    public func confirmSecondFactor(code: String) throws -> [String] {
        try Callback.wait { try await self.confirmSecondFactor(code: code) }
    }

    /// `disableSecondFactor(code:)`, blocking the calling thread.
    @available(*, noasync, message: "use the async disableSecondFactor(code:)")
    public func disableSecondFactor(code: String) throws {
        try Callback.wait { try await self.disableSecondFactor(code: code) }
    }

    /// `regenerateRecoveryCodes(code:)`, blocking the calling thread.
    @available(*, noasync, message: "use the async regenerateRecoveryCodes(code:)")
    @discardableResult
    public func regenerateRecoveryCodes(code: String) throws -> [String] {
        try Callback.wait { try await self.regenerateRecoveryCodes(code: code) }
    }

    /// `secondFactorStatus()`, blocking the calling thread.
    @available(*, noasync, message: "use the async secondFactorStatus()")
    public func secondFactorStatus() throws -> RTSecondFactorStatus {
        try Callback.wait { try await self.secondFactorStatus() }
    }

    /// `logIn(username:password:code:)`, blocking.
    @available(*, noasync, message: "use the async logIn(username:password:code:)")
    @discardableResult
    public static func logInWithUsername(_ username: String, password: String, code: String) throws -> RTUser {
        try Callback.wait { try await logIn(username: username, password: password, code: code) }
    }
}
