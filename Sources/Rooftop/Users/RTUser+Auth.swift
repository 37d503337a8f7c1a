public import Foundation
import RooftopCore

extension RTUser {
    /// Creates this user on the server and makes it the current user. An anonymous or
    /// automatic current user keeps its id and data and becomes a regular user.
    public func signUp() async throws {
        let client = try RTClient.current()
        let (count, body) = try pendingBody()
        if isDeviceAccount, objectId != nil {
            // Converting the anonymous current user: same objectId; the server ends the anonymous
            // session and answers with the one to use from now on.
            guard client.users.isAnonymous(self) else { throw RTError(.otherCause, "This user has already signed up.") }
            // Dropping the anonymous link makes it a regular account (as Parse's SDKs do).
            let converting = JSON.object((body.objectValue ?? [:]).merging(["authData": ["anonymous": .null]]) { $1 })
            let answer = try await client.send(APIRequest(method: "PUT", path: path, body: converting), as: self)
            applySaved(count: count, answer: answer.objectValue ?? [:])
            client.users.converted(self, token: answer["sessionToken"]?.stringValue)
            return
        }
        guard objectId == nil else { throw RTError(.otherCause, "This user has already signed up.") }
        await client.registerDevice()
        let answer = try await client.send(APIRequest(method: "POST", path: "/users", body: body), as: nil)
        guard let fields = answer.objectValue, let token = fields["sessionToken"]?.stringValue else {
            throw RTError(.invalidJSON, "The server's answer to a sign-up has no session.")
        }
        applySaved(count: count, answer: fields)
        client.users.signedIn(fields: fields, token: token, anonymous: false, into: self)
    }

    /// Logs in with a username and password; the user becomes current. For a user with a second
    /// factor this fails with ``RTError/isSecondFactorRequired``: ask for the code and call
    /// ``logIn(username:password:code:)``, or answer with a passkey through
    /// ``logIn(username:password:passkey:)``.
    @discardableResult
    public static func logIn(username: String, password: String) async throws -> RTUser {
        try await logIn(username: username, email: nil, password: password)
    }

    /// Logs in with a username or an email address (either may be nil) and a password.
    @discardableResult
    public static func logIn(username: String?, email: String?, password: String) async throws -> RTUser {
        try await logIn(username: username, email: email, password: password, secondFactorCode: nil)
    }

    /// The login, with the second factor's code (`authData.mfa.token`, as Parse) when given.
    static func logIn(username: String?, email: String?, password: String, secondFactorCode: String?) async throws -> RTUser {
        try await logIn(username: username, email: email, password: password, secondFactor: secondFactorCode.map { ["token": .string($0)] })
    }

    /// The login, with `secondFactor` as `authData.mfa` when given (a code, or a passkey's assertion).
    static func logIn(username: String?, email: String?, password: String, secondFactor: JSON?) async throws -> RTUser {
        let client = try RTClient.current()
        var body: [String: JSON] = ["password": .string(password)]
        if let username { body["username"] = .string(username) }
        if let email { body["email"] = .string(email) }
        if let secondFactor { body["authData"] = ["mfa": secondFactor] }
        await client.registerDevice()
        let answer = try await client.send(APIRequest(method: "POST", path: "/login", body: .object(body)), as: nil)
        return try signedIn(client, answer, anonymous: false)
    }

    /// Makes the user of `sessionToken` current, after checking the token with the server.
    @discardableResult
    public static func become(_ sessionToken: String) async throws -> RTUser {
        let client = try RTClient.current()
        let answer = try await client.transport.send(APIRequest(method: "GET", path: "/users/me", sessionToken: sessionToken))
        guard var fields = answer.objectValue else { throw RTError(.invalidJSON, "The server's answer to become is not an object.") }
        fields["sessionToken"] = .string(sessionToken)
        return try signedIn(client, .object(fields), anonymous: fields["authData"]?["anonymous"] != nil)
    }

    static func signedIn(_ client: RTClient, _ answer: JSON, anonymous: Bool) throws(RTError) -> RTUser {
        guard let fields = answer.objectValue, let token = fields["sessionToken"]?.stringValue, fields["objectId"] != nil else {
            throw RTError(.invalidJSON, "The server's answer has no user and session.")
        }
        return client.users.signedIn(fields: fields, token: token, anonymous: anonymous)
    }

    /// The current user; with `enableAutomaticUser()`, never nil.
    public static func currentUser() -> RTUser? {
        guard let client = RTClient.currentIfInstalled else { return nil }
        if let user = client.users.activeUser { return user }
        return client.automaticUserEnabled ? client.users.automaticUser() : nil
    }

    /// The current user (`currentUser()` as a property).
    public static var current: RTUser? { currentUser() }

    /// Whether a user is signed in and current (an automatic user not yet saved counts).
    public static var isLoggedIn: Bool { RTClient.currentIfInstalled?.users.activeUser != nil }

    /// From now on `currentUser()` is never nil: when nobody is signed in, an anonymous user is
    /// made on the device, and created on the server by its first save (or the first save of
    /// an object that points to it); its `objectId` is nil until then.
    public static func enableAutomaticUser() {
        RTClient.currentIfInstalled?.automaticUserEnabled = true
    }

    /// Logs the current user out: forgotten at once on this device, its session revoked on the
    /// server in the background. The most recent other signed-in user, if any, becomes current.
    public static func logOut() {
        guard let client = RTClient.currentIfInstalled, let user = client.users.activeUser else { return }
        guard let token = client.users.logOut(user) else { return }
        let transport = client.transport
        Task.detached { _ = try? await transport.send(APIRequest(method: "POST", path: "/logout", sessionToken: token)) }
    }

    /// Logs the current user out and waits for the server to revoke its session.
    public static func logOut() async throws {
        guard let user = RTClient.currentIfInstalled?.users.activeUser else { return }
        try await user.logOut()
    }

    /// Logs this user out (only this one) and revokes its session on the server. Logged out
    /// here even when the server cannot be reached.
    public func logOut() async throws {
        let client = try RTClient.current()
        guard let token = client.users.logOut(self) else { return }
        do {
            _ = try await client.transport.send(APIRequest(method: "POST", path: "/logout", sessionToken: token))
        } catch  where error.code == .invalidSessionToken {
            // Already revoked on the server: the goal is reached.
        }
    }

    /// Logs this user out and removes every trace of it from this device.
    public func remove() async throws {
        let client = try RTClient.current()
        let token = client.users.token(of: self)
        client.users.remove(self)
        if let token { _ = try? await client.transport.send(APIRequest(method: "POST", path: "/logout", sessionToken: token)) }
    }

    /// Every user signed in on this device and not removed (logged-out ones included).
    public static var allUsers: [RTUser] { RTClient.currentIfInstalled?.users.all ?? [] }

    /// Makes `user` current without asking for its password; it must be logged in here.
    public static func switchCurrentUser(to user: RTUser) throws {
        try RTClient.current().users.switchTo(user)
    }

    /// Emails a password-reset link to `email` (the server answers the same for any address).
    public static func requestPasswordResetForEmail(_ email: String) async throws {
        let client = try RTClient.current()
        _ = try await client.send(APIRequest(method: "POST", path: "/requestPasswordReset", body: ["email": .string(email)]), as: nil)
    }

    /// Emails a new verification link to `email`.
    public static func requestEmailVerification(_ email: String) async throws {
        let client = try RTClient.current()
        _ = try await client.send(APIRequest(method: "POST", path: "/verificationEmailRequest", body: ["email": .string(email)]), as: nil)
    }

    /// A query for users.
    public class func query() -> RTQuery<RTUser> { RTQuery<RTUser>(typedClassName: "_User") }

    /// The user with `objectId`, as the current user may read it.
    public static func getUserObject(withId objectId: String) async throws -> RTUser {
        try await query().getObject(withId: objectId)
    }

    /// Whether `email` looks like an email address: one `@`, a name before it, a domain with a
    /// dot after it, no spaces, at most 254 characters.
    public static func isValidEmail(_ email: String) -> Bool {
        guard email.count <= 254, !email.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
            && labels.last.map { $0.count >= 2 && $0.allSatisfy(\.isLetter) } == true
    }
}

/// Anonymous users: signed in without a username or password.
public enum RTAnonymousUtils {
    /// Creates an anonymous user on the server; it becomes current.
    @discardableResult
    public static func logIn() async throws -> RTUser {
        let client = try RTClient.current()
        let body: JSON = ["authData": ["anonymous": ["id": .string(UUID().uuidString.lowercased())]]]
        await client.registerDevice()
        let answer = try await client.send(APIRequest(method: "POST", path: "/users", body: body), as: nil)
        return try RTUser.signedIn(client, answer, anonymous: true)
    }

    /// `logIn()` with a completion handler.
    public static func logInWithBlock(_ block: @escaping @Sendable (RTUser?, NSError?) -> Void) {
        Callback.deliver(block) { try await logIn() }
    }

    /// Whether `user` is anonymous (not yet converted by signing up).
    public static func isLinkedWithUser(_ user: RTUser?) -> Bool {
        guard let user, let users = RTClient.currentIfInstalled?.users else { return false }
        return users.contains(user) && users.isAnonymous(user)
    }
}
