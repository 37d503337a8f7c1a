import Foundation
import Rooftop
import RooftopCore
import RooftopCrypto
import RooftopServices
import RooftopTesting
import Testing

@testable import Rooftop

/// Sign-in with a provider from the SDK: `RTUser.logIn(with:)` with a provider's token (async, completion-handler
/// and blocking forms), `link(with:)`, `unlink(_:)`, `isLinked(with:)`, and the browser sign-in
/// through `RTLoopbackAuthenticator` — a real listener on 127.0.0.1 that the "browser" (real
/// HTTP requests following the redirects through the stand-in provider's sign-in form) comes
/// back to.
extension SDKTests {
    @Suite struct ProviderSDKTests {
        static var accounts: AccountsConfiguration {
            var accounts = parseDefaults
            accounts.authRedirectURIs = ["http://127.0.0.1/callback"]
            return accounts
        }

        /// A loopback authenticator whose "browser" signs in as `subject`.
        static func authenticator(_ subject: String, allow: Bool = true) -> RTLoopbackAuthenticator {
            RTLoopbackAuthenticator(timeout: .seconds(20)) { url in
                Task { try await StandInIdentityProvider.browse(url, subject: subject, allow: allow) }
            }
        }

        @Test func pkceMatchesRFC7636() {
            #expect(PKCE.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
            #expect(Base64URL.encode(SHA256.hash(Array("abc".utf8))) == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
            #expect(PKCE.randomSecret().count == 43 && PKCE.randomSecret() != PKCE.randomSecret())
        }

        @Test func logInWithATokenInEveryForm() async throws {
            let idp = try StandInIdentityProvider()
            defer { idp.stop() }
            try await withSDK(accounts: Self.accounts, auth: idp.settings()) { server, _ in
                let user = try await RTUser.logIn(with: .openID(provider: "oidc", id: "ann", idToken: try await idp.idToken(sub: "ann")))
                #expect(RTUser.currentUser()?.objectId == user.objectId && user.isLinked(with: "oidc") && !user.isLinked(with: "github"))
                // The same identity again is the same user.
                let again = try await RTUser.logIn(with: .openID(provider: "oidc", id: "ann", idToken: try await idp.idToken(sub: "ann")))
                #expect(again.objectId == user.objectId)

                let token = try await idp.githubToken(id: 77)
                let (found, error) = await callback { done in RTUser.logInInBackground(with: .github(id: "77", accessToken: token)) { done(($0, $1)) }
                }
                #expect(error == nil && found?.isLinked(with: "github") == true)

                let other = try await idp.githubToken(id: 78)
                let blocking = try await onThread { try RTUser.logIn(with: .github(id: "78", accessToken: other)) }
                #expect(blocking.objectId != found?.objectId)

                // A token that doesn't validate: 101, and nobody new.
                await #expect(throws: RTError.self) { try await RTUser.logIn(with: .github(id: "79", accessToken: "gho_forged")) }
                #expect(try await server.rest("GET", "/users?count=1&limit=0", master: true).1["count"] == 3)
            }
        }

        @Test func linkAndUnlink() async throws {
            let idp = try StandInIdentityProvider()
            defer { idp.stop() }
            try await withSDK(accounts: Self.accounts, auth: idp.settings()) { _, _ in
                let ana = RTUser()
                ana.username = "ana"
                ana.password = "correct horse"
                try await ana.signUp()
                try await ana.link(with: .github(id: "501", accessToken: try await idp.githubToken(id: 501)))
                #expect(ana.isLinked(with: "github"))
                // Another user can't take it: 208.
                let taken = try await idp.githubToken(id: 501)
                try await RTUser.logOut()
                let bob = RTUser()
                bob.username = "bob"
                bob.password = "correct horse"
                try await bob.signUp()
                do {
                    try await bob.link(with: .github(id: "501", accessToken: taken))
                    Issue.record("linked an identity that belongs to ana")
                } catch let error as RTError {
                    #expect(error.code == .accountAlreadyLinked)
                }
                #expect(!bob.isLinked(with: "github"))
                // Ana logs in with GitHub, then unlinks it.
                let viaGitHub = try await RTUser.logIn(with: .github(id: "501", accessToken: try await idp.githubToken(id: 501)))
                #expect(viaGitHub.objectId == ana.objectId)
                try await viaGitHub.unlink("github")
                #expect(!viaGitHub.isLinked(with: "github"))
            }
        }

        @Test func browserSignInThroughTheLoopback() async throws {
            let idp = try StandInIdentityProvider()
            defer { idp.stop() }
            try await withSDK(accounts: Self.accounts, auth: idp.settings()) { server, _ in
                let user = try await RTUser.logIn(withProvider: "oidc", authenticator: Self.authenticator("zed"))
                #expect(RTUser.currentUser()?.objectId == user.objectId && user.isLinked(with: "oidc"))
                let me = try await server.rest("GET", "/users/me", token: user.sessionToken)
                #expect(me.0 == 200, "\(me.1)")

                // The completion-handler form, with GitHub.
                let (found, error) = await callback { done in
                    RTUser.logInInBackground(withProvider: "github", authenticator: Self.authenticator("9001")) { done(($0, $1)) }
                }
                #expect(error == nil && found?.isLinked(with: "github") == true)

                // Linking through the browser; the user stays signed in. The URL the browser
                // opens carries a one-time link code, never the session token.
                let linked = try #require(found)
                let opened = OpenedURLs()
                let session = try #require(linked.sessionToken)
                try await linked.link(
                    withProvider: "oidc",
                    authenticator: RTLoopbackAuthenticator(timeout: .seconds(20)) { url in
                        opened.append(url)
                        Task { try await StandInIdentityProvider.browse(url, subject: "yan") }
                    })
                let start = try #require(opened.urls.first)
                #expect(!start.absoluteString.contains(session) && !start.absoluteString.contains("r%3A") && !start.absoluteString.contains("r:"))
                let items = URLComponents(url: start, resolvingAgainstBaseURL: false)?.queryItems ?? []
                #expect(items.contains { $0.name == "link_code" && $0.value?.count == 43 } && !items.contains { $0.name == "link" })
                #expect(linked.isLinked(with: "oidc") && linked.isLinked(with: "github"))
                #expect(try await server.rest("GET", "/users/me", token: linked.sessionToken).0 == 200)

                // Cancelled at the provider: 101, nobody new.
                do {
                    try await RTUser.logIn(withProvider: "oidc", authenticator: Self.authenticator("x", allow: false))
                    Issue.record("a cancelled sign-in signed in")
                } catch let error as RTError {
                    #expect(error.code == .objectNotFound)
                }
                #expect(try await server.rest("GET", "/users?count=1&limit=0", master: true).1["count"] == 2)
            }
        }
    }
}

/// The URLs an authenticator was asked to open.
final class OpenedURLs: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [URL] = []

    func append(_ url: URL) { lock.withLock { opened.append(url) } }
    var urls: [URL] { lock.withLock { opened } }
}

/// A provider's sign-in of a user with a second factor, from the SDK.
extension SDKTests.ProviderSDKTests {
    @Test func aSecondFactorIsAskedAfterTheProvidersSignIn() async throws {
        let idp = try StandInIdentityProvider()
        defer { idp.stop() }
        // The provider's clock and the server's agree (tokens are checked on the server's).
        try await idp.setClock(1_700_000_000)
        let clock = TestClock()
        let secret: [UInt8] = (0..<20).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 3) }
        let code = { @Sendable (offset: Int64) in TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / 30 + offset) }
        try await withSDK(accounts: Self.accounts, auth: idp.settings(), clock: clock) { server, _ in
            let user = try await RTUser.logIn(withProvider: "oidc", authenticator: Self.authenticator("mia"))
            let enrol = #"{"authData":{"mfa":{"secret":"\#(Base32.encode(secret))","token":"\#(code(0))"}}}"#
            let enrolled = try await server.rest("PUT", "/users/\(try #require(user.objectId))", body: enrol, token: user.sessionToken)
            try #require(enrolled.0 == 200, "\(enrolled.1)")
            try await user.logOut()

            // Without a way to ask: Parse's answer.
            await #expect { try await RTUser.logIn(withProvider: "oidc", authenticator: Self.authenticator("mia")) } throws: {
                ($0 as? RTError)?.isSecondFactorRequired == true
            }
            // Asked after the provider's sign-in: a wrong code first, then the right one, one browser trip.
            clock.advance(by: .seconds(30))
            let asked = LockedBox(0)
            let opened = OpenedURLs()
            let signedIn = try await RTUser.logIn(
                withProvider: "oidc",
                authenticator: RTLoopbackAuthenticator(timeout: .seconds(20)) { url in
                    opened.append(url)
                    Task { try await StandInIdentityProvider.browse(url, subject: "mia") }
                }
            ) {
                let attempt = asked.withLock { count in
                    count += 1
                    return count
                }
                return attempt == 1 ? (code(0) == "000000" ? "111111" : "000000") : code(0)
            }
            #expect(signedIn.objectId == user.objectId && asked.withLock { $0 } == 2 && opened.urls.count == 1)
            let session = try await server.rest("GET", "/sessions/me", token: signedIn.sessionToken)
            #expect(session.1["createdWith"]?["secondFactor"] == "totp", "\(session.1)")

            // With a token the app holds: the code beside it.
            try await signedIn.logOut()
            clock.advance(by: .seconds(30))
            let credential = RTAuthCredential.openID(provider: "oidc", id: "mia", idToken: try await idp.idToken(sub: "mia"))
            await #expect { try await RTUser.logIn(with: credential) } throws: { ($0 as? RTError)?.isSecondFactorRequired == true }
            #expect(try await RTUser.logIn(with: credential, code: code(0)).objectId == user.objectId)
        }
    }
}
