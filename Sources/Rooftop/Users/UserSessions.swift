import Foundation
import RooftopCore

/// Where a user signed in on this device stands (several users may be signed in on one device).
public enum RTUserState: Sendable, Equatable {
    /// Signed in and current: requests run as this user.
    case active
    /// Signed in, not current; `switchCurrentUser(to:)` makes it current without a password.
    case loggedIn
    /// Logged out here, or its session was revoked on the server; its record stays.
    case loggedOut
    /// Removed from this device, or never signed in on it.
    case removed
}

/// The users signed in on this device, their sessions and which one is current; kept in the
/// credential store after every change.
final class UserSessions: @unchecked Sendable {
    private struct Account {
        var user: RTUser
        var token: String?
        var anonymous: Bool
    }

    private let lock = NSLock()
    private var accounts: [Account] = []
    private var activeId: String?
    private let store: any CredentialStore
    private let applicationId: String
    private let warn: @Sendable (String) -> Void

    init(store: any CredentialStore, applicationId: String, warn: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.applicationId = applicationId
        self.warn = warn
        let stored: StoredUsers?
        do {
            stored = try store.load()
        } catch {
            warn("ignoring the stored users: they cannot be read (\(type(of: error)))")
            stored = nil
        }
        guard let stored else { return }
        guard stored.format == 1, stored.applicationId == applicationId else {
            warn("ignoring the stored users: they belong to another application or format")
            return
        }
        for record in stored.users {
            guard let fields = (try? JSONParser.parse(record.fields))?.objectValue else {
                warn("ignoring a stored user whose record is damaged")
                continue
            }
            let user = RTUser()
            user.merge(server: fields, user: user, complete: true)
            user.localId = record.localId
            accounts.append(Account(user: user, token: record.token, anonymous: record.anonymous))
        }
        if let active = stored.active, accounts.contains(where: { $0.user.localId == active && ($0.token != nil || $0.user.objectId == nil) }) {
            activeId = active
        }
    }

    /// The current user.
    var activeUser: RTUser? { lock.withLock { accounts.first { $0.user.localId == activeId }?.user } }

    /// Every user signed in on this device and not removed, in sign-in order.
    var all: [RTUser] { lock.withLock { accounts.map(\.user) } }

    func contains(_ user: RTUser) -> Bool { lock.withLock { index(user) != nil } }
    func token(of user: RTUser) -> String? { lock.withLock { index(user).flatMap { accounts[$0].token } } }
    func isAnonymous(_ user: RTUser) -> Bool { lock.withLock { index(user).map { accounts[$0].anonymous } ?? false } }

    func state(of user: RTUser) -> RTUserState {
        lock.withLock {
            guard let index = index(user) else { return .removed }
            if accounts[index].user.localId == activeId { return .active }
            return accounts[index].token == nil ? .loggedOut : .loggedIn
        }
    }

    private func index(_ user: RTUser) -> Int? {
        guard let id = user.localId else { return nil }
        return accounts.firstIndex { $0.user.localId == id }
    }

    /// A sign-up, login, `become` or anonymous login answered `fields` with `token`: the user
    /// (the same instance as before if it was on this device) becomes current.
    @discardableResult
    func signedIn(fields: [String: JSON], token: String, anonymous: Bool, into given: RTUser? = nil) -> RTUser {
        let user: RTUser = lock.withLock {
            let objectId = fields["objectId"]?.stringValue
            if let given { return given }
            return accounts.first { objectId != nil && $0.user.objectId == objectId }?.user ?? RTUser()
        }
        user.merge(server: fields, user: user, complete: given == nil)
        lock.withLock {
            if user.localId == nil { user.localId = UUID().uuidString.lowercased() }
            // The same server user signed in again from another instance: one record.
            accounts.removeAll { $0.user !== user && $0.user.objectId != nil && $0.user.objectId == user.objectId }
            if let index = index(user) {
                accounts[index].token = token
                accounts[index].anonymous = anonymous
            } else {
                accounts.append(Account(user: user, token: token, anonymous: anonymous))
            }
            activeId = user.localId
        }
        persist()
        return user
    }

    /// The automatic user: current, not on the server until its first save.
    func automaticUser() -> RTUser {
        let user: RTUser = lock.withLock {
            if let active = accounts.first(where: { $0.user.localId == activeId }) { return active.user }
            let user = RTUser()
            user.localId = UUID().uuidString.lowercased()
            accounts.append(Account(user: user, token: nil, anonymous: true))
            activeId = user.localId
            return user
        }
        persist()
        return user
    }

    /// Keeps the fields of `object` if it is a user of this device (after a save or fetch).
    func keep(_ object: RTObject) {
        guard let user = object as? RTUser, contains(user) else { return }
        persist()
    }

    /// The user is no longer anonymous (it signed up with a username and password). The server
    /// ended the anonymous sessions and answered with `token`, the session from now on.
    func converted(_ user: RTUser, token: String?) {
        lock.withLock {
            guard let index = index(user) else { return }
            accounts[index].anonymous = false
            if let token { accounts[index].token = token }
        }
        persist()
    }

    /// A save of `user` (a new password) was answered with a fresh session: the server ended the
    /// old ones, so the user continues with `token`.
    func renewed(_ user: RTUser, token: String) {
        lock.withLock {
            guard let index = index(user), accounts[index].token != nil else { return }
            accounts[index].token = token
        }
        persist()
    }

    /// Logs `user` out here; returns the session to revoke on the server. If it was current, the
    /// most recently signed-in user still logged in becomes current.
    @discardableResult
    func logOut(_ user: RTUser) -> String? {
        let token: String? = lock.withLock {
            guard let index = index(user) else { return nil }
            let token = accounts[index].token
            if accounts[index].user.objectId == nil || accounts[index].anonymous {
                // An anonymous user cannot log in again: logging out abandons it.
                accounts.remove(at: index)
            } else {
                accounts[index].token = nil
            }
            if user.localId == activeId { activeId = accounts.last { $0.token != nil }?.user.localId }
            return token
        }
        persist()
        return token
    }

    /// The server refused `token`: that user is logged out, unless it has signed in again since.
    func sessionEnded(for user: RTUser, token: String) {
        guard self.token(of: user) == token else { return }
        logOut(user)
    }

    /// Forgets `user` on this device.
    func remove(_ user: RTUser) {
        lock.withLock {
            guard let index = index(user) else { return }
            accounts.remove(at: index)
            if user.localId == activeId { activeId = accounts.last { $0.token != nil }?.user.localId }
        }
        persist()
    }

    /// Makes `user` current; it must be signed in here.
    func switchTo(_ user: RTUser) throws(RTError) {
        let problem: RTError? = lock.withLock {
            guard let index = index(user) else { return RTError(.invalidSessionToken, "This user is not signed in on this device.") }
            guard accounts[index].token != nil else { return RTError(.invalidSessionToken, "This user is logged out: log in again.") }
            activeId = user.localId
            return nil
        }
        if let problem { throw problem }
        persist()
    }

    private func persist() {
        let snapshot: StoredUsers = lock.withLock {
            StoredUsers(
                applicationId: applicationId, active: activeId,
                users: accounts.compactMap { account in
                    guard let localId = account.user.localId else { return nil }
                    return StoredUsers.User(
                        localId: localId, token: account.token, anonymous: account.anonymous,
                        fields: JSONWriter.string(account.user.serverJSON(), sortedKeys: true))
                })
        }
        do {
            try store.save(snapshot)
        } catch {
            warn("could not keep the signed-in users: \(error.localizedDescription)")
        }
    }
}
