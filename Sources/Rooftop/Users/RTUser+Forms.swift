public import Foundation

/// The completion-handler and blocking forms of `RTUser`'s calls.
extension RTUser {
    /// `signUp()`, blocking the calling thread.
    @available(*, noasync, message: "use the async signUp()")
    public func signUp() throws { try Callback.wait { try await self.signUp() } }

    /// `signUp()` in the background; `block` gets whether it succeeded.
    public func signUpInBackground(block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.signUp() }
    }

    /// Signs up with `password` (the completion-handler form apps written for Parse's SDK use); `block` gets the user.
    public func signUpInBackground(withPassword password: String, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil) {
        self.password = password
        Callback.deliver(block) {
            try await self.signUp()
            return self
        }
    }

    /// `logIn(username:password:)`, blocking.
    @available(*, noasync, message: "use the async logIn(username:password:)")
    @discardableResult
    public static func logInWithUsername(_ username: String, password: String) throws -> RTUser {
        try Callback.wait { try await logIn(username: username, password: password) }
    }

    /// `logIn(username:password:)` in the background.
    public static func logInWithUsernameInBackground(_ username: String, password: String, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await logIn(username: username, password: password) }
    }

    /// `logIn(username:email:password:)` in the background, with a completion handler.
    public static func logInInBackground(
        username: String?, email: String?, password: String, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(username: username, email: email, password: password) }
    }

    /// `logOut()` in the background; `block` gets nil or the error.
    public static func logOutInBackground(block: (@Sendable (NSError?) -> Void)? = nil) {
        Callback.deliverError(block) { try await logOut() }
    }

    /// This user's `logOut()` with a completion handler (several users may be signed in on one device: this one signs out).
    public func logOut(_ block: @escaping @Sendable (NSError?) -> Void) {
        Callback.deliverError(block) { try await self.logOut() }
    }

    /// `become(_:)` in the background.
    public static func becomeInBackground(_ sessionToken: String, _ block: (@Sendable (RTUser?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await become(sessionToken) }
    }

    /// `requestPasswordResetForEmail(_:)` in the background.
    public static func requestPasswordResetForEmailInBackground(_ email: String, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await requestPasswordResetForEmail(email) }
    }

    /// `requestEmailVerification(_:)` in the background.
    public static func requestEmailVerificationInBackground(_ email: String, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await requestEmailVerification(email) }
    }

}
