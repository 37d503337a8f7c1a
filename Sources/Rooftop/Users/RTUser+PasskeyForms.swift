public import Foundation

/// The completion-handler forms of `RTUser`'s passkey calls. There are no blocking forms: the
/// system's passkey sheet needs the main thread, the thread an app would most likely block.
extension RTUser {
    /// `registerPasskey(named:password:authenticator:)` in the background; `block` gets the new passkey.
    public func registerPasskeyInBackground(
        named name: String? = nil, password: String? = nil, authenticator: some RTPasskeyAuthenticator,
        block: (@Sendable (RTPasskey?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await self.registerPasskey(named: name, password: password, authenticator: authenticator) }
    }

    /// `passkeys()` in the background.
    public func passkeysInBackground(block: (@Sendable ([RTPasskey]?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.passkeys() }
    }

    /// `renamePasskey(_:to:)` in the background; `block` gets the renamed passkey.
    public func renamePasskeyInBackground(_ id: String, to name: String, block: (@Sendable (RTPasskey?, NSError?) -> Void)? = nil) {
        Callback.deliver(block) { try await self.renamePasskey(id, to: name) }
    }

    /// `deletePasskey(_:)` in the background; `block` gets whether it succeeded.
    public func deletePasskeyInBackground(_ id: String, block: (@Sendable (Bool, NSError?) -> Void)? = nil) {
        Callback.deliverSuccess(block) { try await self.deletePasskey(id) }
    }

    /// `logIn(withPasskey:username:)` in the background.
    public static func logInWithPasskeyInBackground(
        _ authenticator: some RTPasskeyAuthenticator, username: String? = nil, block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(withPasskey: authenticator, username: username) }
    }

    /// `logIn(username:password:passkey:)` in the background.
    public static func logInWithUsernameInBackground(
        _ username: String, password: String, passkey authenticator: some RTPasskeyAuthenticator,
        block: (@Sendable (RTUser?, NSError?) -> Void)? = nil
    ) {
        Callback.deliver(block) { try await logIn(username: username, password: password, passkey: authenticator) }
    }
}
