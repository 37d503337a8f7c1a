import Foundation
import Rooftop
import RooftopCore
import RooftopServices
import Testing

/// The users guide's security sections: security for users and other objects, default ACLs, password reset,
/// querying and associations.
extension SDKTests {
    @Suite struct Seed000SecurityTests {
        func signUp(_ name: String) async throws -> RTUser {
            let user = RTUser()
            user.username = name
            user.password = "pass phrase of \(name)"
            user.email = "\(name)@example.com"
            try await user.signUp()
            return user
        }

        /// "Security For User Objects": the blocking calls, on a background thread.
        @Test func securityForUserObjects() async throws {
            try await withSDK { server, _ in
                _ = try await server.rest("POST", "/users", body: #"{"username":"my_username","password":"my_password"}"#)
                let outcome = try await onThread { () throws -> (String?, Int?) in
                    let user = try RTUser.logInWithUsername("my_username", password: "my_password")
                    user.username = "my_new_username"  // attempt to change username
                    try user.save()  // This succeeds, since the user was authenticated on the device

                    // Get the user from a non-authenticated method
                    let query = RTUser.query()
                    let userAgain = try query.getObjectWithId(user.objectId ?? "") as RTUser
                    userAgain.username = "another_username"

                    // This throws, since the RTUser is not authenticated
                    do {
                        try userAgain.save()
                        return (userAgain.username, nil)
                    } catch let error as RTError {
                        return (try RTUser.query().getObjectWithId(user.objectId ?? "").username, error.code.rawValue)
                    }
                }
                #expect(outcome.0 == "my_new_username")
                #expect(outcome.1 == RTErrorCode.userCannotBeAlteredWithoutSession.rawValue)
                #expect(RTUser.currentUser()?.isAuthenticated == true)
            }
        }

        /// "Security For Other Objects": a private note, a group message, a public post.
        @Test func securityForOtherObjects() async throws {
            try await withSDK { server, _ in
                let bob = try await signUp("bob")
                let carol = try await signUp("carol")
                let alice = try await signUp("alice")

                let privateNote = RTObject(className: "Note")
                privateNote["content"] = "This note is private!"
                privateNote.ACL = RTACL.ACLWithUser(RTUser.currentUser())
                try await privateNote.save()

                let groupMessage = RTObject(className: "Message")
                var groupACL = RTACL.ACL()
                // userList is an array with the users we are sending this message to.
                let userList = [bob, carol]
                for user in userList {
                    groupACL.setReadAccess(true, forUser: user)
                    groupACL.setWriteAccess(true, forUser: user)
                }
                groupMessage.ACL = groupACL
                groupMessage["text"] = "hello group"
                try await groupMessage.save()

                let publicPost = RTObject(className: "Post")
                var postACL = RTACL.ACLWithUser(RTUser.currentUser())
                postACL.setPublicReadAccess(true)
                publicPost.ACL = postACL
                publicPost["title"] = "for everyone"
                try await publicPost.save()
                #expect(publicPost.ACL?.publicReadAccess == true && publicPost.ACL?.getWriteAccess(forUser: alice) == true)

                // Bob signs in on this device too: he sees the message and the post, not the note.
                try await RTUser.logIn(username: "bob", password: "pass phrase of bob")
                let notes = try await RTQuery(className: "Note").findObjects()
                #expect(notes.isEmpty)
                let message = try await RTQuery(className: "Message").getObject(withId: groupMessage.objectId ?? "")
                #expect(message["text"] as? String == "hello group")
                let post = try await RTQuery(className: "Post").getFirstObject()
                post["title"] = "defaced"
                // "Operations that are forbidden … result in a kRTErrorObjectNotFound error code."
                await #expect { try await post.save() } throws: { ($0 as? RTError)?.code.rawValue == kRTErrorObjectNotFound }
                await #expect { try await post.delete() } throws: { ($0 as NSError).code == kRTErrorObjectNotFound }
                // Alice's objects still go out with Alice's session, although Bob is current now.
                publicPost["title"] = "edited by alice"
                try await publicPost.save()
                let (_, stored) = try await server.rest("GET", "/classes/Post/\(publicPost.objectId ?? "")", master: true)
                #expect(stored["title"] == "edited by alice")
            }
        }

        /// Default ACLs: the users guide's three set-ups.
        @Test func defaultACLs() async throws {
            try await withSDK { server, _ in
                let owner = try await signUp("owner")
                func acl(of object: RTObject) async throws -> JSON? {
                    try await server.rest("GET", "/classes/\(object.className)/\(object.objectId ?? "")", master: true).1["ACL"]
                }

                var defaultACL = RTACL.ACL()
                defaultACL.setPublicReadAccess(true)
                RTACL.setDefaultACL(defaultACL, withAccessForCurrentUser: true)
                let tweet = RTObject(className: "Tweet")
                try await tweet.save()
                #expect(try await acl(of: tweet) == ["*": ["read": true], .init(owner.objectId ?? ""): ["read": true, "write": true]])

                RTACL.setDefaultACL(RTACL.ACL(), withAccessForCurrentUser: true)
                let file = RTObject(className: "File")
                try await file.save()
                #expect(try await acl(of: file) == [.init(owner.objectId ?? ""): ["read": true, "write": true]])

                RTACL.setDefaultACL(RTACL.ACL(), withAccessForCurrentUser: false)
                let log = RTObject(className: "Log")
                try await log.save()
                #expect(try await acl(of: log) == [:])

                // An explicit ACL wins over the default.
                let explicit = RTObject(className: "Log")
                var open = RTACL()
                open.publicReadAccess = true
                explicit.ACL = open
                try await explicit.save()
                #expect(try await acl(of: explicit) == ["*": ["read": true]])
            }
        }

        /// "Resetting Passwords": the request sends the link (by email or by an email-like username).
        @Test func resettingPasswords() async throws {
            try await withSDK { server, _ in
                _ = try await signUp("ana")
                RTUser.requestPasswordResetForEmailInBackground("ana@example.com")
                let mail = try await server.mail(count: 1)
                #expect(mail.first?.contains("To: ana@example.com") == true)
                #expect(mail.first?.contains("/apps/\(sdkAppId)/request_password_reset?token=") == true)
                let answered: Bool = await callback { done in
                    RTUser.requestPasswordResetForEmailInBackground("nobody@example.com") { succeeded, _ in done(succeeded) }
                }
                #expect(answered)  // the same answer for an unknown address
                await #expect(throws: RTError.self) { try await RTUser.requestPasswordResetForEmail("") }
            }
        }

        /// "Querying" users, and "Associations".
        @Test func queryingAndAssociations() async throws {
            // "By default, the data can still be read by any client": Parse before 6, and Rooftop
            // with enforcePrivateUsers off (on by default, as in Parse 7: users are private).
            var accounts = parseDefaults
            accounts.enforcePrivateUsers = false
            try await withSDK(accounts: accounts) { _, _ in
                for (name, gender) in [("eve", "female"), ("fay", "female"), ("gus", "male")] {
                    let user = try await signUp(name)
                    user["gender"] = gender
                    try await user.save()
                }
                let names = try await onThread { () throws -> [String] in
                    let query = RTUser.query()
                    query.whereKey("gender", equalTo: "female")
                    let girls = try query.findObjects()
                    return girls.compactMap(\.username).sorted()
                }
                #expect(names == ["eve", "fay"])
                let gus = try #require(RTUser.currentUser())
                #expect(try await RTUser.getUserObject(withId: gus.objectId ?? "").username == "gus")

                let user = try #require(RTUser.currentUser())
                // Make a new post
                let post = RTObject(className: "Post")
                post["title"] = "My New Post"
                post["body"] = "This is some great content."
                post["user"] = user
                try await post.save()
                let other = RTObject(className: "Post")
                other["title"] = "Someone else's"
                try await other.save()

                // Find all posts by the current user
                let query = RTQuery.queryWithClassName("Post")
                query.whereKey("user", equalTo: user)
                let usersPosts = try await query.findObjects()
                #expect(usersPosts.map { $0["title"] as? String } == ["My New Post"])
                let author = try #require(usersPosts.first?["user"] as? RTUser)
                #expect(author.objectId == user.objectId && !author.isDataAvailable)
                try await author.fetch()
                #expect(author.username == "gus")
            }
        }
    }
}
