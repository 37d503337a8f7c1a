import Foundation
import Rooftop
import RooftopCore
import RooftopServices
import Testing

/// The sample apps' flows: a device's user and `userMatchesCurrentUserSession`, the two-user
/// todo tutorial, and the backend wrapper's calls.
extension SDKTests {
    @Suite struct SeedTutorialTests {
        /// The two-user todo tutorial: sign up, log in by email, add todos (owner-only ACL by the bucket's default),
        /// log out; a second user sees none of them.
        @Test func twoUsersTodoTutorial() async throws {
            try await withSDK(configure: { $0.defaultACL = ["TodoTutorial2": .owner] }) { server, _ in
                #expect(!RTUser.isLoggedIn)  // loginCheck: show the login screen
                for (username, email) in [("taro", "taro@example.com"), ("hanako", "hanako@example.com")] {
                    let user = RTUser()
                    user.username = username
                    user.email = email
                    let (created, error): (RTUser?, NSError?) = await callback { done in
                        user.signUpInBackground(withPassword: "password1234") { (user, error) in done((user, error)) }
                    }
                    #expect(error == nil && created === user)
                    try await RTUser.logOut()
                }

                let first: (RTUser?, NSError?) = await callback { done in
                    RTUser.logInInBackground(username: nil, email: "taro@example.com", password: "password1234") { user, error in done((user, error))
                    }
                }
                #expect(first.1 == nil && first.0?.username == "taro" && RTUser.isLoggedIn)
                for text in ["牛乳を買う", "メールを書く"] {
                    let todo = RTObject(className: "TodoTutorial2")
                    todo["text"] = text
                    try await todo.save()
                }
                #expect(try await RTQuery(className: "TodoTutorial2").countObjects() == 2)
                let loggedOut: NSError? = await callback { done in RTUser.logOutInBackground { error in done(error) } }
                #expect(loggedOut == nil && !RTUser.isLoggedIn)

                let second: (RTUser?, NSError?) = await callback { done in
                    RTUser.logInInBackground(username: "hanako", email: nil, password: "password1234") { user, error in done((user, error)) }
                }
                #expect(second.0?.username == "hanako")
                #expect(try await RTQuery(className: "TodoTutorial2").findObjects().isEmpty)
                let wrong: NSError? = await callback { done in
                    RTUser.logInInBackground(username: "hanako", email: nil, password: "wrong password") { _, error in done(error) }
                }
                #expect(wrong?.code == kRTErrorObjectNotFound && RTUser.currentUser()?.username == "hanako")
                let (_, all) = try await server.rest("GET", "/classes/TodoTutorial2", master: true)
                #expect(all["results"]?.arrayValue?.count == 2)
            }
        }

        /// The device-user app: the device's user, and whether an event's user is the current one.
        @Test func deviceUserMatchesCurrentSession() async throws {
            try await withSDK { _, _ in
                let user = try await RTAnonymousUtils.logIn()
                let event = RTObject(className: "Event")
                event["user"] = user
                try await event.save()
                let found = try await RTQuery(className: "Event").getFirstObject()
                let owner = try #require(found["user"] as? RTUser)
                #expect(owner !== user && owner.isCurrentUser)  // another instance, the same account
                #expect(!RTUser(withoutDataWithObjectId: "someoneElse").isCurrentUser)
            }
        }

        /// The backend wrapper's calls: isValidEmail, isLoggedIn, sign-up, login, current, a password reset
        /// request and a survey stored on the user.
        @Test func backendWrapperCalls() async throws {
            #expect(RTUser.isValidEmail("some@email.com"))
            for bad in ["", "some", "@email.com", "some@", "some@email", "so me@email.com", "some@@email.com", "some@email.c0m"] {
                #expect(!RTUser.isValidEmail(bad), "\(bad)")
            }
            try await withSDK { server, _ in
                let user = RTUser()
                user.username = "john"
                user.password = "a long password"
                user.email = "john@example.com"
                try await user.signUp()
                #expect(RTUser.isLoggedIn)
                try await RTUser.logOut()
                let loggedIn = try await RTUser.logIn(username: "john", password: "a long password")
                let current = try #require(RTUser.current)
                #expect(current === loggedIn)
                current["firstName"] = "John"
                current["lastName"] = "Kotz"
                current["frequency"] = 0
                current["intensity"] = 1
                try await current.save()
                let (_, stored) = try await server.rest("GET", "/users/\(current.objectId ?? "")", master: true)
                #expect(stored["firstName"] == "John" && stored["frequency"] == 0 && stored["intensity"] == 1)
                try await RTUser.requestPasswordResetForEmail("john@example.com")
                #expect(try await server.mail(count: 1).count == 1)
            }
        }
    }
}
