import Foundation
import RooftopCore

/// Passkeys (WebAuthn): sign in with a key pair the device keeps, unlocked by Face ID, Touch ID
/// or the device passcode, instead of a password, or as the second factor after one. The
/// server must have a relying party (its domain) that the app is associated with; see
/// `docs/passkeys.md`.
///
/// Each call on a user acts with that user's own session, so it works for any user signed in
/// on this device, current or not; the sign-ins add the user to the device's list and make it
/// current, as every login does.
///
/// ```swift
/// let passkey = try await user.registerPasskey(named: "iPhone", authenticator: authenticator)
/// try await user.logOut()
/// let again = try await RTUser.logIn(withPasskey: authenticator)  // no username, no password
/// ```
extension RTUser {
    /// Makes a new passkey for this signed-in user with `authenticator` and registers it; from
    /// then on the user can sign in with it.
    ///
    /// The server asks for a recent sign-in (within 15 minutes) before adding a way to sign in:
    /// past that, pass the user's `password`, or the server refuses before the authenticator is
    /// asked anything. An anonymous user cannot register a passkey.
    ///
    /// - Parameters:
    ///   - name: a label to tell the user's passkeys apart (e.g. "Ana's iPhone"); the server's
    ///     default when nil.
    ///   - password: the user's password, when the sign-in is not recent.
    ///   - authenticator: what makes the passkey: `RTPlatformPasskeyAuthenticator` on iOS and macOS.
    /// - Returns: the passkey as the server keeps it.
    @discardableResult
    public func registerPasskey(named name: String? = nil, password: String? = nil, authenticator: some RTPasskeyAuthenticator) async throws
        -> RTPasskey
    {
        let reauthentication: JSON = password.map { ["password": .string($0)] } ?? [:]
        let options = try await passkeyRequest("POST", "/registration/options", body: reauthentication)
        let request = try RTPasskeyCreationRequest(options: options)
        let registration: RTPasskeyCredentialRegistration
        do {
            registration = try await authenticator.createCredential(request)
        } catch {
            throw RTError.passkeyAuthenticator(error)
        }
        var body: [String: JSON] = ["credential": registration.json]
        if let name { body["name"] = .string(name) }
        return try RTPasskey(try await passkeyRequest("POST", "", body: .object(body)))
    }

    /// This user's passkeys.
    public func passkeys() async throws -> [RTPasskey] {
        let answer = try await passkeyRequest("GET", "", body: nil)
        guard let results = answer["results"]?.arrayValue else { throw RTError(.invalidJSON, "The server's answer has no passkeys.") }
        return try results.map { (passkey: JSON) throws(RTError) -> RTPasskey in try RTPasskey(passkey) }
    }

    /// Gives the passkey with `id` (``RTPasskey/id``) a new label.
    @discardableResult
    public func renamePasskey(_ id: String, to name: String) async throws -> RTPasskey {
        try RTPasskey(try await passkeyRequest("PUT", "/" + Self.pathComponent(id), body: ["name": .string(name)]))
    }

    /// Removes the passkey with `id` (``RTPasskey/id``) from this user: it no longer signs in,
    /// though it stays in the user's credential manager until they delete it there. Refused
    /// with 119 (``RTErrorCode/operationForbidden``) when it is the account's last way to sign in.
    public func deletePasskey(_ id: String) async throws {
        _ = try await passkeyRequest("DELETE", "/" + Self.pathComponent(id), body: nil)
    }

    /// Signs in with a passkey; the user becomes current.
    ///
    /// Without a `username`, the credential manager offers every passkey this device has for
    /// the server's domain and the one chosen names the account. With one, only that user's
    /// passkeys are accepted.
    ///
    /// A passkey the server refuses fails with ``RTError/isInvalidPasskey``; a user who closes
    /// the system's sheet, with ``RTError/isPasskeyCancelled``. Neither opens a session.
    @discardableResult
    public static func logIn(withPasskey authenticator: some RTPasskeyAuthenticator, username: String? = nil) async throws -> RTUser {
        let client = try RTClient.current()
        let assertion = try await passkeyAssertion(client, username: username, authenticator: authenticator)
        await client.registerDevice()
        let answer = try await client.send(
            APIRequest(method: "POST", path: "/passkeys/authentication", body: ["credential": assertion.json]), as: nil)
        return try signedIn(client, answer, anonymous: false)
    }

    /// Logs in a user with a second factor: the password, then one of the user's passkeys in
    /// place of the authenticator app's code. The user becomes current.
    ///
    /// The answer to ``RTError/isSecondFactorRequired`` when the user would rather use a passkey:
    ///
    /// ```swift
    /// do {
    ///     try await RTUser.logIn(username: name, password: password)
    /// } catch let error as RTError where error.isSecondFactorRequired {
    ///     try await RTUser.logIn(username: name, password: password, passkey: authenticator)
    /// }
    /// ```
    ///
    /// A passkey the server refuses fails as a wrong code does, with
    /// ``RTError/isInvalidSecondFactorCode``, and opens no session.
    @discardableResult
    public static func logIn(username: String, password: String, passkey authenticator: some RTPasskeyAuthenticator) async throws -> RTUser {
        let client = try RTClient.current()
        let assertion = try await passkeyAssertion(client, username: username, secondFactor: true, authenticator: authenticator)
        return try await logIn(username: username, email: nil, password: password, secondFactor: ["passkey": assertion.json])
    }

    /// The sign-in's options from the server (for a login's second step when `secondFactor`: the
    /// server keeps the two kinds of challenge apart), signed by `authenticator`.
    private static func passkeyAssertion(
        _ client: RTClient, username: String?, secondFactor: Bool = false, authenticator: some RTPasskeyAuthenticator
    ) async throws -> RTPasskeyCredentialAssertion {
        var fields: [String: JSON] = [:]
        fields["username"] = username.map(JSON.string)
        if secondFactor { fields["secondFactor"] = true }
        let body = JSON.object(fields)
        let options = try await client.send(APIRequest(method: "POST", path: "/passkeys/authentication/options", body: body), as: nil)
        let request = try RTPasskeyAssertionRequest(options: options)
        do {
            return try await authenticator.assertCredential(request)
        } catch {
            throw RTError.passkeyAuthenticator(error)
        }
    }

    /// `/users/me/passkeys` + `path`, sent with this user's session; a user not signed in on
    /// this device fails with 209 before anything is sent.
    private func passkeyRequest(_ method: String, _ path: String, body: JSON?) async throws -> JSON {
        let client = try RTClient.current()
        guard isDeviceAccount, !isLazy else {
            throw RTError(.invalidSessionToken, "This user is not signed in on this device: log in first.")
        }
        return try await client.send(APIRequest(method: method, path: "/users/me/passkeys" + path, body: body), as: self)
    }

    /// A credential id is base64url, but the id comes from the app: anything else is escaped
    /// so it cannot reach another route.
    private static func pathComponent(_ id: String) throws(RTError) -> String {
        let base64URL = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard !id.isEmpty, let escaped = id.addingPercentEncoding(withAllowedCharacters: base64URL) else {
            throw RTError(.objectNotFound, "No passkey has an empty id.")
        }
        return escaped
    }
}
