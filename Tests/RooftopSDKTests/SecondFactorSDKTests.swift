import Foundation
import Rooftop
import RooftopCore
import RooftopCrypto
import RooftopTesting
import Testing

/// A second factor from the SDK against a real server on a test clock: enrol, confirm, logins
/// that need a code, recovery codes, regeneration, disabling; for a user who is not current;
/// and the completion-handler and blocking forms. Codes are computed as an authenticator app
/// does (RFC 6238) for the server's clock, and the clock moves one step before each new code,
/// since each code is accepted once.
extension SDKTests {
    @Suite struct SecondFactorSDKTests {
        /// The code an authenticator app shows now for `enrollment`'s secret.
        func code(_ enrollment: RTSecondFactorEnrollment, _ clock: TestClock) throws -> String {
            let secret = try #require(Base32.decode(enrollment.secret))
            return TOTP.code(secret: secret, step: clock.now().millisecondsSince1970 / 1000 / TOTP.period)
        }

        /// The next step's code: the clock moves 30 seconds first.
        func nextCode(_ enrollment: RTSecondFactorEnrollment, _ clock: TestClock) throws -> String {
            clock.advance(by: .seconds(30))
            return try code(enrollment, clock)
        }

        /// A code that is not the current one.
        func wrong(_ enrollment: RTSecondFactorEnrollment, _ clock: TestClock) throws -> String {
            let right = try code(enrollment, clock)
            return right == "000000" ? "111111" : "000000"
        }

        func signUp(_ name: String) async throws -> RTUser {
            let user = RTUser()
            user.username = name
            user.password = "pass of \(name)"
            user.email = "\(name)@example.com"
            try await user.signUp()
            return user
        }

        func needsCode(_ error: any Error) -> Bool { RTError(error)?.isSecondFactorRequired == true }
        func refusedCode(_ error: any Error) -> Bool { RTError(error)?.isInvalidSecondFactorCode == true }

        @Test func enrolConfirmLogInRecoverRegenerateDisable() async throws {
            let clock = TestClock()
            try await withSDK(clock: clock) { _, _ in
                let ana = try await signUp("ana")
                let enrollment = try await ana.enrollSecondFactor()
                #expect(enrollment.secret.count == 32 && Base32.decode(enrollment.secret)?.count == 20)
                #expect(enrollment.uri.scheme == "otpauth" && enrollment.uri.absoluteString.contains("secret=\(enrollment.secret)"))
                // Nothing in force before it is confirmed; a wrong first code confirms nothing.
                #expect(try await ana.secondFactorStatus() == RTSecondFactorStatus(isEnabled: false, recoveryCodesLeft: 0))
                let wrongFirst = try wrong(enrollment, clock)
                await #expect { try await ana.confirmSecondFactor(code: wrongFirst) } throws: { refusedCode($0) }
                let recovery = try await ana.confirmSecondFactor(code: code(enrollment, clock))
                #expect(recovery.count == 10 && Set(recovery).count == 10)
                #expect(try await ana.secondFactorStatus() == RTSecondFactorStatus(isEnabled: true, recoveryCodesLeft: 10))

                // The password alone opens nothing, and the app can tell a code is wanted.
                try await ana.logOut()
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana") } throws: { needsCode($0) }
                #expect(RTUser.currentUser() == nil && ana.state == .loggedOut)
                // A wrong password with a code is the usual 101, not a question about the factor.
                await #expect { try await RTUser.logIn(username: "ana", password: "not it", code: "123456") } throws: {
                    ($0 as? RTError)?.code == .objectNotFound
                }
                let wrongCode = try wrong(enrollment, clock)
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana", code: wrongCode) } throws: { refusedCode($0) }
                let loggedIn = try await RTUser.logIn(username: "ana", password: "pass of ana", code: try nextCode(enrollment, clock))
                #expect(loggedIn === ana && ana.state == .active)

                // A recovery code, as typed (case and spaces don't matter), by email: once.
                try await ana.logOut()
                let typed = recovery[3].uppercased().replacingOccurrences(of: "-", with: " ")
                let byEmail = try await RTUser.logIn(username: nil, email: "ana@example.com", password: "pass of ana", code: typed)
                #expect(byEmail === ana && ana.state == .active)
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana", code: recovery[3]) } throws: {
                    refusedCode($0)
                }
                #expect(ana.state == .active)  // a refused login leaves the signed-in user alone
                #expect(try await ana.secondFactorStatus() == RTSecondFactorStatus(isEnabled: true, recoveryCodesLeft: 9))

                // Ten new recovery codes; the old ones stop working.
                let renewed = try await ana.regenerateRecoveryCodes(code: try nextCode(enrollment, clock))
                #expect(renewed.count == 10 && Set(renewed).isDisjoint(with: recovery))
                #expect(try await ana.secondFactorStatus() == RTSecondFactorStatus(isEnabled: true, recoveryCodesLeft: 10))
                await #expect { try await RTUser.logIn(username: "ana", password: "pass of ana", code: recovery[4]) } throws: {
                    refusedCode($0)
                }

                // Off with a code: the password alone is enough again.
                let wrongOff = try wrong(enrollment, clock)
                await #expect { try await ana.disableSecondFactor(code: wrongOff) } throws: { refusedCode($0) }
                try await ana.disableSecondFactor(code: try nextCode(enrollment, clock))
                #expect(try await ana.secondFactorStatus() == RTSecondFactorStatus(isEnabled: false, recoveryCodesLeft: 0))
                try await ana.logOut()
                #expect(try await RTUser.logIn(username: "ana", password: "pass of ana") === ana)
            }
        }

        /// Two users signed in on one device: Emma enrols while Joe is current; each call acts
        /// with Emma's own session, and Joe's account is untouched.
        @Test func aUserWhoIsNotCurrentEnrols() async throws {
            let clock = TestClock()
            try await withSDK(clock: clock) { server, _ in
                let emma = try await signUp("emma")
                let joe = try await signUp("joe")
                #expect(joe.isCurrentUser && emma.state == .loggedIn)

                let enrollment = try await emma.enrollSecondFactor()
                let recovery = try await emma.confirmSecondFactor(code: code(enrollment, clock))
                #expect(recovery.count == 10)
                #expect(joe.isCurrentUser && emma.state == .loggedIn)
                #expect(try await emma.secondFactorStatus() == RTSecondFactorStatus(isEnabled: true, recoveryCodesLeft: 10))
                #expect(try await joe.secondFactorStatus() == RTSecondFactorStatus(isEnabled: false, recoveryCodesLeft: 0))
                let (_, joesOwn) = try await server.rest("GET", "/users/me/mfa", token: joe.sessionToken)
                #expect(joesOwn["enabled"] == false, "\(joesOwn)")
                let (_, emmasOwn) = try await server.rest("GET", "/users/me/mfa", token: emma.sessionToken)
                #expect(emmasOwn["enabled"] == true, "\(emmasOwn)")

                // Joe still logs in with his password alone; Emma needs a code.
                #expect(try await RTUser.logIn(username: "joe", password: "pass of joe") === joe)
                await #expect { try await RTUser.logIn(username: "emma", password: "pass of emma") } throws: { needsCode($0) }
                #expect(joe.isCurrentUser && emma.state == .loggedIn)

                // Replacing Emma's factor needs one of its codes; the old one holds until the new one is confirmed.
                await #expect { try await emma.enrollSecondFactor() } throws: { ($0 as? RTError)?.code == .scriptFailed }
                let replacement = try await emma.enrollSecondFactor(currentCode: recovery[0])
                #expect(replacement.secret != enrollment.secret)
                #expect(try await emma.secondFactorStatus() == RTSecondFactorStatus(isEnabled: true, recoveryCodesLeft: 9))
                let renewed = try await emma.confirmSecondFactor(code: nextCode(replacement, clock))
                #expect(Set(renewed).isDisjoint(with: recovery))
                #expect(try await RTUser.logIn(username: "emma", password: "pass of emma", code: nextCode(replacement, clock)) === emma)

                // A user that is not signed in here has no session to act with: refused before sending.
                let stranger = RTUser(withoutDataWithObjectId: try #require(emma.objectId))
                await #expect { try await stranger.secondFactorStatus() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }
            }
        }

        /// The completion-handler and blocking forms, and the check on the `NSError` a completion
        /// handler gets.
        @Test func completionAndBlockingForms() async throws {
            let clock = TestClock()
            try await withSDK(clock: clock) { _, _ in
                let ana = try await signUp("ana")
                let enrollment = try await onThread { try ana.enrollSecondFactor() }
                let firstCode = try code(enrollment, clock)
                let confirmed: ([String]?, NSError?) = await callback { finish in
                    ana.confirmSecondFactorInBackground(code: firstCode) { finish(($0, $1)) }
                }
                #expect(confirmed.0?.count == 10 && confirmed.1 == nil)
                let status = try await onThread { try ana.secondFactorStatus() }
                #expect(status.isEnabled && status.recoveryCodesLeft == 10)

                let refused: (RTUser?, NSError?) = await callback { finish in
                    RTUser.logInWithUsernameInBackground("ana", password: "pass of ana") { finish(($0, $1)) }
                }
                let refusal = try #require(refused.1)
                #expect(refused.0 == nil && refusal.domain == "Rooftop" && refusal.code == -1)
                #expect(RTError(refusal)?.isSecondFactorRequired == true && RTError(refusal)?.isInvalidSecondFactorCode == false)
                // Only that answer asks for a code: other -1 and 141 errors do not.
                #expect(!RTError(.otherCause, "Email already verified.").isSecondFactorRequired)
                #expect(!RTError(.scriptFailed, "Invalid MFA token in my cloud function").isInvalidSecondFactorCode)

                let nextStep = try nextCode(enrollment, clock)
                let user = try await onThread { try RTUser.logInWithUsername("ana", password: "pass of ana", code: nextStep) }
                #expect(user === ana && ana.isCurrentUser)
                let off: (Bool, NSError?) = await callback { finish in
                    ana.disableSecondFactorInBackground(code: confirmed.0?.first ?? "") { finish(($0, $1)) }
                }
                #expect(off.0 && off.1 == nil)
                #expect(try await ana.secondFactorStatus().isEnabled == false)
            }
        }
    }
}
