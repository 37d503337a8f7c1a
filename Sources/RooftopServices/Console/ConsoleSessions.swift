import Foundation
import RooftopCore
package import RooftopStorage

/// One signed-in admin's session as stored (kind `session`, keyed by the token's digest): the
/// token itself is only in the admin's cookie.
package struct ConsoleSession: Sendable, Codable, ConsoleRecordValue, Equatable {
    /// The CSRF token every form of this session carries.
    package var csrf: String
    /// When the admin signed in (ms since 1970).
    package var createdAt: Int64
    /// The last request (ms since 1970).
    package var lastSeen: Int64
}

/// Admin sessions: a random token in an `HttpOnly` cookie, stored hashed, ended by logout, by
/// `idleTimeout` seconds without a request and by `absoluteTimeout` seconds after sign-in.
package struct ConsoleSessions: Sendable {
    let store: any ConsoleRecordStore
    let tokens: any SessionTokenSource
    /// Signs the sign-in form's tokens, with a key every node derives from the same secret.
    let formKey: any KeyedMAC
    let clock: any ServerClock
    let idleTimeout: Int64
    let absoluteTimeout: Int64

    static let kind = "session"

    /// How long a sign-in form may wait before it is sent, in seconds.
    static let signInFormLifetime: Int64 = 3600

    /// Creates the session store; timeouts in seconds; `formKey` signs sign-in form tokens.
    package init(
        store: any ConsoleRecordStore, tokens: any SessionTokenSource, formKey: any KeyedMAC, clock: any ServerClock,
        idleTimeout: Int, absoluteTimeout: Int
    ) {
        self.store = store
        self.tokens = tokens
        self.formKey = formKey
        self.clock = clock
        self.idleTimeout = Int64(idleTimeout) * 1000
        self.absoluteTimeout = Int64(absoluteTimeout) * 1000
    }

    /// A new session for `admin`: its token (for the cookie only) and its record.
    package func open(for admin: String) async throws -> (token: String, session: ConsoleSession) {
        let token = tokens.newSecret()
        let now = clock.now().millisecondsSince1970
        let session = ConsoleSession(csrf: tokens.newSecret(), createdAt: now, lastSeen: now)
        let record = ConsoleRecord(
            kind: Self.kind, key: tokens.digest(token), owner: admin, value: try session.recordText(), expiresAt: expiry(session))
        guard try await store.insertConsoleRecord(record) else { throw ConsoleAdmins.Refusal(description: "session clash") }
        return (token, session)
    }

    /// The admin and session behind `token`, its last use moved to now; nil when it is unknown,
    /// idle too long or too old (it is then deleted).
    package func resume(_ token: String) async throws -> (admin: String, session: ConsoleSession)? {
        guard !token.isEmpty, token.utf8.count <= 128 else { return nil }
        let key = tokens.digest(token)
        guard let record = try await store.consoleRecord(kind: Self.kind, key: key), var session = try? ConsoleSession(recordText: record.value)
        else {
            return nil
        }
        let now = clock.now().millisecondsSince1970
        guard now - session.lastSeen < idleTimeout, now - session.createdAt < absoluteTimeout else {
            _ = try await store.deleteConsoleRecord(kind: Self.kind, key: key)
            return nil
        }
        session.lastSeen = now
        // A concurrent request may have moved it first; either one's time will do.
        _ = try await store.replaceConsoleRecord(
            kind: Self.kind, key: key, expected: record.value, value: try session.recordText(), expiresAt: expiry(session))
        return (record.owner, session)
    }

    /// Ends the session behind `token`.
    package func close(_ token: String) async throws {
        _ = try await store.deleteConsoleRecord(kind: Self.kind, key: tokens.digest(token))
    }

    /// When the record may be pruned: the earlier of the two timeouts.
    func expiry(_ session: ConsoleSession) -> Int64 {
        min(session.lastSeen + idleTimeout, session.createdAt + absoluteTimeout)
    }

    /// A sign-in form's token, `<expiry seconds>.<random>.<hex MAC>`: no session exists yet, so
    /// the server can't remember it, but only the server can make one. A token tossed into the
    /// browser's cookie by a sibling site must still be one of ours, recent, and the same as the
    /// form's; the console also refuses POSTs from other origins (`ConsoleResponder`).
    package func newSignInToken() -> String {
        let expires = clock.now().millisecondsSince1970 / 1000 + Self.signInFormLifetime
        let nonce = tokens.newSecret()
        return "\(expires).\(nonce).\(MACHex.text(formKey.mac(Self.signInMessage(expires, nonce))))"
    }

    /// Whether `token` is a sign-in token this server (or another node with the same secret)
    /// made and that has not expired.
    package func isSignInToken(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count <= 12, parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let expires = Int64(parts[0]),
            expires > clock.now().millisecondsSince1970 / 1000, !parts[1].isEmpty, parts[1].utf8.count <= 128, let mac = MACHex.bytes(parts[2])
        else { return false }
        return formKey.isValid(mac, for: Self.signInMessage(expires, String(parts[1])))
    }

    static func signInMessage(_ expires: Int64, _ nonce: String) -> [UInt8] { Array("rooftop-console-sign-in\n\(expires)\n\(nonce)".utf8) }

    /// Whether `given` is the session's CSRF token, compared in constant time.
    package static func csrfMatches(_ given: String?, _ expected: String) -> Bool {
        guard let given, !expected.isEmpty else { return false }
        return ConstantTime.equals(given, expected)
    }
}
