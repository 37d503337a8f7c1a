import Foundation
import Rooftop
import RooftopCore
import Testing

/// Several users signed in on one device, and what survives a restart.
extension SDKTests {
    @Suite struct MultiUserTests {
        func account(_ server: SDKServer, _ name: String) async throws {
            let (status, _) = try await server.rest("POST", "/users", body: #"{"username":"\#(name)","password":"pass of \#(name)"}"#)
            try #require(status == 201)
        }

        /// Two users log in; list, switch, per-user log-out and removal.
        @Test func addListSwitchLogOutRemove() async throws {
            try await withSDK { server, _ in
                try await account(server, "joe")
                try await account(server, "emma")
                let joe = try await RTUser.logIn(username: "joe", password: "pass of joe")
                #expect(joe == RTUser.currentUser())  // The active user is now Joe
                let emma = try await RTUser.logIn(username: "emma", password: "pass of emma")
                #expect(emma == RTUser.currentUser())  // The active user is now Emma
                #expect(RTUser.allUsers.map(\.username) == ["joe", "emma"])
                #expect(joe.state == .loggedIn && emma.state == .active)

                // Each user's objects carry that user's session.
                let emmasNote = RTObject(className: "Note")
                emmasNote["text"] = "emma's"
                emmasNote.ACL = RTACL(user: emma)
                try RTUser.switchCurrentUser(to: joe)
                #expect(RTUser.currentUser() === joe && joe.state == .active && emma.state == .loggedIn)
                try await emmasNote.save()  // made while Emma was current: saved as Emma
                let joesNote = RTObject(className: "Note")
                joesNote["text"] = "joe's"
                joesNote.ACL = RTACL(user: joe)
                try await joesNote.save()
                #expect(try await RTQuery(className: "Note").findObjects().map { $0["text"] as? String } == ["joe's"])
                try RTUser.switchCurrentUser(to: emma)
                #expect(try await RTQuery(className: "Note").findObjects().map { $0["text"] as? String } == ["emma's"])

                // Emma logs out: Joe becomes current again; Emma stays listed, logged out.
                let emmasToken = try #require(emma.sessionToken)
                try await emma.logOut()
                #expect(emma.state == .loggedOut && RTUser.currentUser() === joe && emma.sessionToken == nil)
                #expect(RTUser.allUsers.count == 2)
                #expect(try await server.rest("GET", "/users/me", token: emmasToken).0 == 400)
                #expect(throws: RTError.self) { try RTUser.switchCurrentUser(to: emma) }
                emmasNote["text"] = "changed while emma is logged out"
                await #expect { try await emmasNote.save() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }

                // Remove Joe: gone from the list, no current user.
                let done: NSError? = await callback { finish in joe.logOut { error in finish(error) } }
                #expect(done == nil && joe.state == .loggedOut)
                try await joe.remove()
                #expect(joe.state == .removed && RTUser.allUsers.map(\.username) == ["emma"] && RTUser.currentUser() == nil)
            }
        }

        /// A password change on another device revokes the session: the next request fails with
        /// 209 and the user is logged out here; the other user is untouched.
        @Test func revokedSessionLogsTheUserOut() async throws {
            try await withSDK { server, _ in
                try await account(server, "joe")
                try await account(server, "emma")
                let joe = try await RTUser.logIn(username: "joe", password: "pass of joe")
                let emma = try await RTUser.logIn(username: "emma", password: "pass of emma")
                // "Another device": Joe logs in there and changes his password.
                let (_, login) = try await server.rest("POST", "/login", body: #"{"username":"joe","password":"pass of joe"}"#)
                let otherToken = try #require(login["sessionToken"]?.stringValue)
                let (status, _) = try await server.rest(
                    "PUT", "/users/\(joe.objectId ?? "")", body: #"{"password":"a brand new pass"}"#, token: otherToken)
                #expect(status == 200)

                try RTUser.switchCurrentUser(to: joe)
                await #expect { try await joe.fetch() } throws: { ($0 as? RTError)?.code == .invalidSessionToken }
                #expect(joe.state == .loggedOut && RTUser.currentUser() === emma)
                try await emma.fetch()  // Emma's session is hers alone
                #expect(emma.state == .active)
                try await RTUser.logIn(username: "joe", password: "a brand new pass")
                #expect(joe.state == .active && RTUser.allUsers.count == 2)
            }
        }

        /// Users, sessions and the current user survive a restart (a new client reading the same
        /// store); the file is private; a damaged or foreign file is ignored with a warning.
        @Test func persistenceAcrossRestarts() async throws {
            try await withSDK { server, storage in
                try await account(server, "joe")
                try await account(server, "emma")
                try await RTUser.logIn(username: "joe", password: "pass of joe")
                let emma = try await RTUser.logIn(username: "emma", password: "pass of emma")
                emma["nickname"] = "em"
                try await emma.save()
                let file = storage.appendingPathComponent("users.json")
                let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("pass of"))  // passwords are never kept

                Rooftop.initialize(with: sdkConfiguration(server, storage: storage))  // "restart"
                let restored = try #require(RTUser.currentUser())
                #expect(restored !== emma && restored.username == "emma" && restored["nickname"] as? String == "em")
                #expect(RTUser.allUsers.map(\.username) == ["joe", "emma"])
                try await restored.fetch()  // the kept session works
                let installation = try String(contentsOf: storage.appendingPathComponent("installationId"), encoding: .utf8)

                let warnings = WarningLog()
                try Data("{not json".utf8).write(to: file)
                Rooftop.initialize(with: sdkConfiguration(server, storage: storage, warnings: warnings))
                #expect(RTUser.currentUser() == nil && RTUser.allUsers.isEmpty)
                #expect(warnings.all.count == 1 && warnings.all.first?.contains("cannot be read") == true)
                #expect(try String(contentsOf: storage.appendingPathComponent("installationId"), encoding: .utf8) == installation)

                try #"{"format":1,"applicationId":"someone-else","users":[]}"#.write(to: file, atomically: true, encoding: .utf8)
                Rooftop.initialize(with: sdkConfiguration(server, storage: storage, warnings: warnings))
                #expect(RTUser.allUsers.isEmpty && warnings.all.last?.contains("another application") == true)
                #expect(warnings.all.allSatisfy { !$0.contains("r:") && !$0.contains("pass of") })
            }
        }
    }
}
