import Foundation
import Rooftop
import RooftopCore
import Testing

/// The users guide: "the converted user will retain all of its data" — and keeps working: the server
/// ends the anonymous session when the user signs up, so the SDK must carry on with the session
/// the conversion answered with.
extension SDKTests {
    @Suite struct AnonymousConversionTests {
        /// An anonymous user with a private note signs up; the very next calls (query, save,
        /// fetch) work, the old session is refused, and a restart restores the converted user.
        @Test func theConvertedUserKeepsItsDataAndStaysSignedIn() async throws {
            try await withSDK { server, storage in
                let anonymous = try await RTAnonymousUtils.logIn()
                let id = try #require(anonymous.objectId)
                let anonymousToken = try #require(anonymous.sessionToken)
                let note = RTObject(className: "Note")
                note["text"] = "private"
                note.ACL = RTACL(user: anonymous)
                try await note.save()

                let current = try #require(RTUser.currentUser())
                current.username = "ana"
                current.password = "correct horse"
                current.email = "ana@example.com"
                try await current.signUp()
                #expect(current.sessionToken != anonymousToken)
                #expect(try await RTQuery(className: "Note").findObjects().map { $0["text"] as? String } == ["private"])
                note["text"] = "edited"
                try await note.save()
                #expect(try await current.fetch().objectId == id)
                #expect(!RTAnonymousUtils.isLinkedWithUser(current))
                #expect(try await server.rest("GET", "/users/me", token: anonymousToken).1["code"] == 209)

                // The app restarts over the same storage: the converted user, with its session.
                Rooftop.initialize(with: sdkConfiguration(server, storage: storage))
                let restored = try #require(RTUser.currentUser())
                #expect(restored.objectId == id && restored.username == "ana")
                #expect(try await RTQuery(className: "Note").findObjects().map { $0["text"] as? String } == ["edited"])
            }
        }

        /// The completion-handler form converts the same way.
        @Test func theCallbackFormAdoptsTheNewSession() async throws {
            try await withSDK { _, _ in
                let anonymous = try await RTAnonymousUtils.logIn()
                anonymous.username = "bob"
                anonymous.password = "correct horse"
                let (succeeded, error): (Bool, NSError?) = await callback { done in
                    anonymous.signUpInBackground { ok, error in done((ok, error)) }
                }
                #expect(succeeded && error == nil)
                let note = RTObject(className: "Note")
                note["text"] = "after"
                try await note.save()
                #expect(try await RTQuery(className: "Note").findObjects().count == 1)
            }
        }

        /// A taken username refuses the conversion and leaves the anonymous user signed in and
        /// usable; a second conversion is refused; logging out afterwards ends the new session.
        @Test func refusedAndRepeatedConversions() async throws {
            try await withSDK { server, _ in
                let (status, _) = try await server.rest("POST", "/users", body: #"{"username":"taken","password":"pass of taken"}"#)
                try #require(status == 201)
                let anonymous = try await RTAnonymousUtils.logIn()
                anonymous.username = "taken"
                anonymous.password = "correct horse"
                await #expect(throws: RTError.self) { try await anonymous.signUp() }
                #expect(RTAnonymousUtils.isLinkedWithUser(RTUser.currentUser()))
                let note = RTObject(className: "Note")
                note["text"] = "still anonymous"
                try await note.save()

                anonymous.username = "free"
                try await anonymous.signUp()
                await #expect(throws: RTError.self) { try await anonymous.signUp() }
                let token = try #require(anonymous.sessionToken)
                try await RTUser.logOut()
                #expect(try await server.rest("GET", "/users/me", token: token).1["code"] == 209)
            }
        }

        /// A new password saved on the current user ends its other sessions; the SDK carries on
        /// with the fresh one the server answered with.
        @Test func aNewPasswordKeepsTheUserSignedIn() async throws {
            try await withSDK { server, _ in
                let user = RTUser()
                user.username = "cy"
                user.password = "correct horse"
                try await user.signUp()
                let before = try #require(user.sessionToken)
                user.password = "another good phrase"
                try await user.save()
                #expect(user.sessionToken != before)
                #expect(try await server.rest("GET", "/users/me", token: before).1["code"] == 209)
                let note = RTObject(className: "Note")
                note["text"] = "after the change"
                try await note.save()
                #expect(try await RTQuery(className: "Note").findObjects().count == 1)
            }
        }
    }
}
