import Foundation
import Rooftop
import RooftopCore
import RooftopServices
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The users guide ("Users"), each Swift snippet as close to verbatim as Swift 6 allows, against a
/// real server.
extension SDKTests {
    @Suite struct Seed000UserTests {
        /// "Signing Up": the snippet's completion handler, then the error a taken username gives.
        @Test func signingUp() async throws {
            try await withSDK { server, _ in
                let succeeded: Bool = await callback { done in
                    let user = RTUser()
                    user.username = "myUsername"
                    user.password = "myPassword"
                    user.email = "email@example.com"
                    // other fields can be set just like with RTObject
                    user["phone"] = "415-392-0202"

                    user.signUpInBackground { (success, error) in
                        if let error = error {
                            let errorString = error.userInfo["error"] as? NSString
                            Issue.record("sign-up failed: \(errorString ?? "") \(error)")
                            done(false)
                        } else {
                            // Hooray! Let them use the app now.
                            done(success)
                        }
                    }
                }
                #expect(succeeded)
                let current = try #require(RTUser.currentUser())
                #expect(current.username == "myUsername" && current["phone"] as? String == "415-392-0202")
                #expect(current.isAuthenticated && current.sessionToken != nil && current.password == nil)
                let (status, stored) = try await server.rest("GET", "/users/\(current.objectId ?? "")", master: true)
                #expect(status == 200 && stored["phone"] == "415-392-0202" && stored["password"] == nil)

                let (error, code): (String?, Int?) = await callback { done in
                    let user = RTUser()
                    user.username = "myUsername"
                    user.password = "otherPassword"
                    user.signUpInBackground { (success, error) in
                        done(((error?.userInfo["error"] as? NSString).map { String($0) }, error?.code))
                    }
                }
                #expect(code == kRTErrorUsernameTaken && error == "Account already exists for this username.")
                #expect(RTUser.currentUser()?.username == "myUsername")  // the failed sign-up changed nothing
            }
        }

        /// "Logging In", and a wrong password.
        @Test func loggingIn() async throws {
            try await withSDK { server, _ in
                _ = try await server.rest("POST", "/users", body: #"{"username":"myname","password":"mypass"}"#)
                let loggedIn: RTUser? = await callback { done in
                    RTUser.logInWithUsernameInBackground("myname", password: "mypass") { (user, error) in
                        if user != nil {
                            // Do stuff after successful login.
                        } else {
                            // The login failed. Check error to see why.
                        }
                        done(user)
                    }
                }
                let user = try #require(loggedIn)
                #expect(user.username == "myname" && user.isCurrentUser && RTUser.isLoggedIn)
                let failure: NSError? = await callback { done in
                    RTUser.logInWithUsernameInBackground("myname", password: "wrong") { (_, error) in done(error) }
                }
                #expect(failure?.code == kRTErrorObjectNotFound && failure?.domain == "Rooftop")
                #expect(RTUser.currentUser() === user)
            }
        }

        /// "Verifying Emails": missing without verification, false after sign-up, true after the
        /// emailed link is opened and the user refreshed.
        @Test func verifyingEmails() async throws {
            var accounts = parseDefaults
            accounts.verifyUserEmails = true
            try await withSDK(accounts: accounts) { server, _ in
                let withoutEmail = RTUser()
                withoutEmail.username = "noemail"
                withoutEmail.password = "my pass phrase"
                try await withoutEmail.signUp()
                #expect(withoutEmail.emailVerified == nil)

                let user = RTUser()
                user.username = "ana"
                user.password = "my pass phrase"
                user.email = "ana@example.com"
                try await user.signUp()
                #expect(user.emailVerified == nil)  // the sign-up answer does not say; a refresh does
                try await user.refresh()
                #expect(user.emailVerified == false)
                let message = try #require(try await server.mail(count: 1).first)
                let start = try #require(message.range(of: server.url + "/apps/"))
                let link = String(message[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "<" })
                let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: link)))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(user.emailVerified == false)  // as of the last refresh
                try await user.refresh()
                #expect(user.emailVerified == true)
                try await RTUser.requestEmailVerification("ana@example.com")  // answers the same for a verified address
            }
        }

        /// "Current User": cached after sign-up, nil after `logOut()`; the session is revoked.
        @Test func currentUserAndLogOut() async throws {
            try await withSDK { server, _ in
                let user = RTUser()
                user.username = "ana"
                user.password = "my pass phrase"
                try await user.signUp()
                let token = try #require(user.sessionToken)

                // The seed's calls, from synchronous code (where the non-async `logOut()` is chosen).
                func seed() -> (RTUser?, RTUser?) {
                    let before = RTUser.currentUser()
                    RTUser.logOut()
                    let currentUser = RTUser.currentUser()  // this will now be nil
                    return (before, currentUser)
                }
                let (before, currentUser) = seed()
                #expect(before === user && currentUser == nil && !RTUser.isLoggedIn)
                var status = 200
                for _ in 0..<50 where status == 200 {
                    status = try await server.rest("GET", "/users/me", token: token).0
                    if status == 200 { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(status == 400)  // revoked on the server (209)
            }
        }

        /// "Anonymous Users": log in anonymously, check, convert by signing up: same objectId,
        /// data kept.
        @Test func anonymousUsers() async throws {
            try await withSDK { server, _ in
                let message: String = await callback { done in
                    RTAnonymousUtils.logInWithBlock {
                        (user: RTUser?, error: NSError?) -> Void in
                        if error != nil || user == nil {
                            done("Anonymous login failed.")
                        } else {
                            done("Anonymous user logged in.")
                        }
                    }
                }
                #expect(message == "Anonymous user logged in.")
                #expect(RTAnonymousUtils.isLinkedWithUser(RTUser.currentUser()))
                let anonymous = try #require(RTUser.currentUser())
                let id = try #require(anonymous.objectId)
                anonymous["level"] = 3
                try await anonymous.save()

                anonymous.username = "converted"
                anonymous.password = "my pass phrase"
                try await anonymous.signUp()
                #expect(!RTAnonymousUtils.isLinkedWithUser(RTUser.currentUser()))
                #expect(anonymous.objectId == id)
                let login = try await RTUser.logIn(username: "converted", password: "my pass phrase")
                #expect(login.objectId == id && login["level"] as? Int == 3)
                let (_, stored) = try await server.rest("GET", "/users/\(id)", master: true)
                #expect(stored["authData"]?["anonymous"] == nil)
            }
        }

        /// "Anonymous Users", automatic: `currentUser()` is never nil; the first save creates it.
        @Test func automaticUser() async throws {
            try await withSDK { server, _ in
                RTUser.enableAutomaticUser()
                RTUser.currentUser()?.incrementKey("RunCount")
                #expect(RTUser.currentUser()?.objectId == nil)
                let saved: Bool = await callback { done in
                    RTUser.currentUser()?.saveInBackground { succeeded, _ in done(succeeded) }
                }
                #expect(saved)
                let user = try #require(RTUser.currentUser())
                let id = try #require(user.objectId)
                #expect(user["RunCount"] as? Int == 1 && RTAnonymousUtils.isLinkedWithUser(user))
                let (_, stored) = try await server.rest("GET", "/users/\(id)", master: true)
                #expect(stored["RunCount"] == 1)

                // After logging out, a fresh automatic user; an object pointing to it creates it.
                try await RTUser.logOut()
                let next = try #require(RTUser.currentUser())
                #expect(next !== user && next.objectId == nil)
                let post = RTObject(className: "Post")
                post["author"] = next
                try await post.save()
                #expect(next.objectId != nil && next.objectId != id)
                let (_, stored2) = try await server.rest("GET", "/classes/Post/\(post.objectId ?? "")", master: true)
                #expect(stored2["author"]?["objectId"]?.stringValue == next.objectId)
            }
        }

        /// "Setting the Current User": `become` checks the token first.
        @Test func settingTheCurrentUser() async throws {
            try await withSDK { server, _ in
                let (_, signup) = try await server.rest("POST", "/users", body: #"{"username":"ana","password":"my pass phrase"}"#)
                let token = try #require(signup["sessionToken"]?.stringValue)
                let became: (RTUser?, NSError?) = await callback { done in
                    RTUser.becomeInBackground(
                        token,
                        {
                            (user, error) in
                            done((user, error))
                        })
                }
                #expect(became.1 == nil && became.0?.username == "ana" && RTUser.currentUser() === became.0)
                let refused: NSError? = await callback { done in
                    RTUser.becomeInBackground("session-token-here", { (user, error) in done(error) })
                }
                #expect(refused?.code == kRTErrorInvalidSessionToken)
                #expect(RTUser.currentUser()?.username == "ana")
            }
        }
    }
}
