import Foundation
import Rooftop
import RooftopCore
import RooftopCrypto
import RooftopTesting
import Testing

/// Passkeys from the SDK against a real server, with RooftopTesting's software passkey in the
/// authenticator's place: registration, the list, renaming, deleting, sign-in without and with
/// a username, the passkey as a second factor, for a user who is not current, and every
/// refusal as an `RTError` the app can tell apart. The server's defaults serve: relying party
/// `localhost`, origin `http://localhost:PORT`, user verification required.
extension SDKTests {
    @Suite struct PasskeySDKTests {
        func signUp(_ name: String) async throws -> RTUser {
            let user = RTUser()
            user.username = name
            user.password = "pass of \(name)"
            try await user.signUp()
            return user
        }

        func invalidPasskey(_ error: any Error) -> Bool { RTError(error)?.isInvalidPasskey == true }

        @Test func registerListRenameDelete() async throws {
            let clock = TestClock()
            try await withSDK(clock: clock) { server, _ in
                let ana = try await signUp("ana")
                let laptop = SoftwarePasskeyAuthenticator(server)
                // A passkey kept on this device only (the software passkey syncs by default).
                await laptop.change {
                    $0.backupEligible = false
                    $0.backedUp = false
                }
                let registered = try await ana.registerPasskey(named: "Ana's laptop", authenticator: laptop)
                let laptopID = await laptop.id
                #expect(registered.id == laptopID && registered.name == "Ana's laptop" && registered.lastUsedAt == nil)
                #expect(!registered.backupEligible && !registered.backedUp)

                // What the authenticator was asked: the server's relying party and an opaque user handle.
                let asked = try #require(await laptop.creations.first)
                #expect(asked.relyingPartyID == "localhost" && asked.userName == "ana" && asked.userDisplayName == "ana")
                #expect(asked.challenge.count == 32 && !asked.userID.isEmpty && asked.userID != Data("ana".utf8))
                #expect(asked.excludedCredentialIDs.isEmpty && asked.userVerification == .required)
                #expect(try await ana.passkeys() == [registered])

                // A second passkey: the server names the first so that the authenticator makes no duplicate.
                let phone = SoftwarePasskeyAuthenticator(server, algorithm: .eddsa)
                await phone.change {
                    $0.backupEligible = true
                    $0.backedUp = true
                }
                let synced = try await ana.registerPasskey(authenticator: phone)
                #expect(synced.backupEligible && synced.backedUp)
                let secondAsk = try #require(await phone.creations.first)
                #expect(secondAsk.excludedCredentialIDs.map(Base64URLOf.data) == [laptopID])
                let both = try await ana.passkeys()
                #expect(Set(both.map(\.id)) == [registered.id, synced.id])

                let renamed = try await ana.renamePasskey(synced.id, to: "Ana's phone")
                #expect(renamed.id == synced.id && renamed.name == "Ana's phone")
                #expect(try await ana.passkeys().first { $0.id == synced.id }?.name == "Ana's phone")

                try await ana.deletePasskey(synced.id)
                #expect(try await ana.passkeys().map(\.id) == [registered.id])
                // The deleted passkey no longer signs in; the other still does.
                try await ana.logOut()
                await #expect { try await RTUser.logIn(withPasskey: phone) } throws: { invalidPasskey($0) }
                #expect(try await RTUser.logIn(withPasskey: laptop) === ana)

                // An id that is no passkey of hers, even one shaped like a path, stays under her passkeys.
                await #expect { try await ana.renamePasskey("../../classes/_User", to: "x") } throws: { $0 is RTError }
                #expect(try await ana.passkeys().map(\.id) == [registered.id])

                // A sign-in over 15 minutes old needs the password to add a passkey.
                clock.advance(by: .seconds(16 * 60))
                let tablet = SoftwarePasskeyAuthenticator(server)
                await #expect { try await ana.registerPasskey(authenticator: tablet) } throws: { $0 is RTError }
                #expect(await tablet.creations.isEmpty)
                await #expect { try await ana.registerPasskey(password: "not it", authenticator: tablet) } throws: { $0 is RTError }
                _ = try await ana.registerPasskey(named: "Tablet", password: "pass of ana", authenticator: tablet)
                #expect(try await ana.passkeys().count == 2)
            }
        }

        @Test func signInWithoutAndWithAUsername() async throws {
            try await withSDK { server, _ in
                let ana = try await signUp("ana")
                let passkey = SoftwarePasskeyAuthenticator(server)
                let registered = try await ana.registerPasskey(authenticator: passkey)
                try await ana.logOut()
                #expect(RTUser.currentUser() == nil)

                // No username: any discoverable passkey; its user handle names the account.
                let user = try await RTUser.logIn(withPasskey: passkey)
                #expect(user === ana && ana.isCurrentUser && ana.username == "ana")
                let usernameless = try #require(await passkey.assertions.last)
                #expect(usernameless.allowedCredentialIDs.isEmpty && usernameless.relyingPartyID == "localhost")
                #expect(usernameless.challenge.count == 32 && usernameless.userVerification == .required)
                let session = try await server.rest("GET", "/sessions/me", token: ana.sessionToken)
                #expect(session.1["createdWith"]?["authProvider"] == "passkey", "\(session.1)")
                #expect(try await ana.passkeys().first?.lastUsedAt != nil)

                // With a username: only that user's passkeys are offered.
                try await ana.logOut()
                #expect(try await RTUser.logIn(withPasskey: passkey, username: "ana") === ana)
                let hinted = try #require(await passkey.assertions.last)
                #expect(hinted.allowedCredentialIDs.map(Base64URLOf.data) == [registered.id])
                #expect(hinted.challenge != usernameless.challenge)
            }
        }

        /// Joe is current while Emma, also signed in here, adds and manages a passkey: each call
        /// acts with Emma's session; Joe stays current until Emma signs in with it.
        @Test func aUserWhoIsNotCurrent() async throws {
            try await withSDK { server, _ in
                let emma = try await signUp("emma")
                let joe = try await signUp("joe")
                let passkey = SoftwarePasskeyAuthenticator(server)
                let registered = try await emma.registerPasskey(named: "Emma's", authenticator: passkey)
                #expect(joe.isCurrentUser && emma.state == .loggedIn)
                #expect(try await emma.passkeys().map(\.id) == [registered.id])
                #expect(try await joe.passkeys().isEmpty)
                #expect(try await RTUser.logIn(withPasskey: passkey) === emma)
                #expect(emma.isCurrentUser && joe.state == .loggedIn)

                // A user not signed in on this device has no session to act with.
                let stranger = RTUser(withoutDataWithObjectId: try #require(emma.objectId))
                await #expect { try await stranger.passkeys() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }
                await #expect { try await stranger.registerPasskey(authenticator: passkey) } throws: {
                    ($0 as? RTError)?.code == .invalidSessionToken
                }
            }
        }

        @Test func asASecondFactor() async throws {
            let clock = TestClock()
            try await withSDK(clock: clock) { server, _ in
                let ana = try await signUp("ana")
                let passkey = SoftwarePasskeyAuthenticator(server)
                try await ana.registerPasskey(authenticator: passkey)
                let enrollment = try await ana.enrollSecondFactor()
                let secret = try #require(Base32.decode(enrollment.secret))
                try await ana.confirmSecondFactor(code: TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / TOTP.period))
                try await ana.logOut()

                // The password alone asks for a second factor; a passkey answers it.
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana") } throws: {
                    RTError($0)?.isSecondFactorRequired == true
                }
                let user = try await RTUser.logIn(username: "ana", password: "pass of ana", passkey: passkey)
                #expect(user === ana && ana.isCurrentUser)
                let passkeyID = await passkey.id
                let asked = try #require(await passkey.assertions.last)
                #expect(asked.allowedCredentialIDs.map(Base64URLOf.data) == [passkeyID])
                let session = try await server.rest("GET", "/sessions/me", token: ana.sessionToken)
                #expect(session.1["createdWith"]?["secondFactor"] == "passkey", "\(session.1)")

                // A passkey the server refuses is a refused second factor, as a wrong code is.
                try await ana.logOut()
                await passkey.change { $0.origin = "http://evil.example" }
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana", passkey: passkey) } throws: {
                    RTError($0)?.isInvalidSecondFactorCode == true
                }
                // And a passkey does not replace the password.
                await passkey.change { $0.origin = "http://localhost:\(server.port)" }
                await #expect { try await RTUser.logIn(username: "ana", password: "not it", passkey: passkey) } throws: {
                    ($0 as? RTError)?.code == .objectNotFound && !invalidPasskey($0)
                }
                #expect(RTUser.currentUser() == nil && ana.state == .loggedOut)
            }
        }

        /// The completion-handler forms, and the check on the `NSError` a completion handler gets.
        @Test func completionHandlerForms() async throws {
            try await withSDK { server, _ in
                let ana = try await signUp("ana")
                let passkey = SoftwarePasskeyAuthenticator(server)
                let registered: (RTPasskey?, NSError?) = await callback { finish in
                    ana.registerPasskeyInBackground(named: "Ana's", authenticator: passkey) { finish(($0, $1)) }
                }
                let id = try #require(registered.0?.id)
                #expect(registered.1 == nil)
                let listed: ([RTPasskey]?, NSError?) = await callback { finish in ana.passkeysInBackground { finish(($0, $1)) } }
                #expect(listed.0?.map(\.id) == [id])
                let renamed: (RTPasskey?, NSError?) = await callback { finish in
                    ana.renamePasskeyInBackground(id, to: "Renamed") { finish(($0, $1)) }
                }
                #expect(renamed.0?.name == "Renamed")

                try await ana.logOut()
                let signedIn: (RTUser?, NSError?) = await callback { finish in
                    RTUser.logInWithPasskeyInBackground(passkey, username: "ana") { finish(($0, $1)) }
                }
                #expect(signedIn.0 === ana && signedIn.1 == nil)
                await passkey.change { $0.origin = "http://evil.example" }
                try await ana.logOut()
                let refused: (RTUser?, NSError?) = await callback { finish in
                    RTUser.logInWithPasskeyInBackground(passkey) { finish(($0, $1)) }
                }
                let refusal = try #require(refused.1)
                #expect(refused.0 == nil && refusal.domain == "Rooftop" && refusal.code == 101 && RTError(refusal)?.isInvalidPasskey == true)

                await passkey.change { $0.origin = "http://localhost:\(server.port)" }
                try await RTUser.logIn(withPasskey: passkey)
                let deleted: (Bool, NSError?) = await callback { finish in ana.deletePasskeyInBackground(id) { finish(($0, $1)) } }
                #expect(deleted.0 && deleted.1 == nil)
                #expect(try await ana.passkeys().isEmpty)
            }
        }

        /// Every failure is an `RTError`: the server's refusals as `isInvalidPasskey`, the
        /// authenticator's own as -1 (or unchanged when it threw an `RTError`), a cancel as
        /// `isPasskeyCancelled`; none opens a session or registers anything.
        @Test func refusalsAndAuthenticatorFailures() async throws {
            try await withSDK { server, _ in
                let ana = try await signUp("ana")
                let passkey = SoftwarePasskeyAuthenticator(server)
                try await ana.registerPasskey(authenticator: passkey)
                try await ana.logOut()

                // The server's refusals: another origin, no user verification, another relying party.
                await passkey.change { $0.origin = "http://evil.example" }
                await #expect { try await RTUser.logIn(withPasskey: passkey) } throws: { invalidPasskey($0) }
                await passkey.change {
                    $0.origin = "http://localhost:\(server.port)"
                    $0.userVerified = false
                }
                await #expect { try await RTUser.logIn(withPasskey: passkey) } throws: { invalidPasskey($0) }
                await passkey.change {
                    $0.userVerified = true
                    $0.rpId = "example.com"
                }
                await #expect { try await RTUser.logIn(withPasskey: passkey) } throws: { invalidPasskey($0) }
                await passkey.change { $0.rpId = "localhost" }
                // A passkey the server never saw.
                await #expect { try await RTUser.logIn(withPasskey: SoftwarePasskeyAuthenticator(server)) } throws: { error in
                    invalidPasskey(error) || RTError(error)?.code == .otherCause
                }
                #expect(RTUser.currentUser() == nil && ana.state == .loggedOut)
                #expect(try await RTUser.logIn(withPasskey: passkey) === ana)

                // The authenticator's failures, before anything reaches the server.
                let stranger = SoftwarePasskeyAuthenticator(server)
                await #expect { try await RTUser.logIn(withPasskey: stranger, username: "ana") } throws: { error in
                    let failure = RTError(error)
                    return failure?.code == .otherCause && failure?.message.contains("authenticator") == true && !invalidPasskey(error)
                }
                let broken = FailingPasskeyAuthenticator(error: CredentialManagerBroke())
                await #expect { try await ana.registerPasskey(authenticator: broken) } throws: {
                    ($0 as? RTError)?.message == "The passkey authenticator failed: the credential manager is locked"
                }
                let own = RTError(.timeout, "The sheet timed out.")
                await #expect { try await RTUser.logIn(withPasskey: FailingPasskeyAuthenticator(error: own)) } throws: { ($0 as? RTError) == own }
                await #expect { try await ana.registerPasskey(authenticator: FailingPasskeyAuthenticator(error: CancellationError())) } throws: {
                    RTError($0)?.isPasskeyCancelled == true
                }
                #expect(try await ana.passkeys().count == 1 && ana.isCurrentUser)

                // Only the passkey routes' 101 is a refused passkey.
                #expect(!RTError(.objectNotFound, "Invalid username/password.").isInvalidPasskey)
                #expect(RTError(.objectNotFound, "Invalid passkey.").isInvalidPasskey)
            }
        }
    }
}

/// A credential id as the server names it.
enum Base64URLOf {
    static func data(_ bytes: Data) -> String { Base64URL.encode(Array(bytes)) }
}
