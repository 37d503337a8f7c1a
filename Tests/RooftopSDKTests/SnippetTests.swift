import Foundation
import RooftopCore
import RooftopServices
import Testing

/// The DocC snippets (`Snippets/`, built with the package) run against a real server, each in a
/// process of its own, and do what the Getting Started article says they do.
extension SDKTests {
    @Suite struct SnippetTests {
        static let snippets = ProgramRunner(
            directory: ProgramRunner.repository.appendingPathComponent(".build/debug"), buildCommand: "swift build")

        func run(_ name: String, _ server: SDKServer, _ environment: [String: String] = [:]) throws -> String {
            let (status, output) = try Self.snippets.run(
                name, environment: environment.merging(["ROOFTOP_SERVER": server.url, "ROOFTOP_APPLICATION_ID": sdkAppId]) { $1 })
            #expect(status == 0, "\(name): \(output)")
            return output
        }

        /// Signs a user up over REST ("another device"): its objectId and session token.
        @discardableResult
        func signUp(_ server: SDKServer, _ fields: String) async throws -> (String, String) {
            let (status, user) = try await server.rest("POST", "/users", body: "{\(fields)}")
            try #require(status == 201, "\(user)")
            return (user["objectId"]?.stringValue ?? "", user["sessionToken"]?.stringValue ?? "")
        }

        @Test func signingUp() async throws {
            try await withSDK { server, _ in
                let first = try run("SigningUp", server)
                #expect(first.hasPrefix("signed up "), "\(first)")
                let (_, users) = try await server.rest("GET", "/users", master: true)
                #expect(users["results"]?.arrayValue?.first?["phone"] == "415-392-0202")
                let second = try run("SigningUp", server)
                #expect(second == "sign-up failed (202): Account already exists for this username.\n")
            }
        }

        @Test func loggingIn() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"myname","password":"mypass","email":"myname@example.com""#)
                #expect(try run("LoggingIn", server) == "logged in myname\n")
                #expect(try run("LoggingInAsync", server) == "logged in myname twice, current: true\n")
            }
        }

        @Test func verifyingEmails() async throws {
            var accounts = parseDefaults
            accounts.verifyUserEmails = true
            try await withSDK(accounts: accounts) { server, _ in
                #expect(try run("VerifyingEmails", server) == "Optional(false)\n")
                let mails = try await server.mail(count: 2)
                #expect(mails.count == 2 && mails.allSatisfy { $0.contains("ana@example.com") })
            }
        }

        @Test func profilePicture() async throws {
            try await withSDK { server, _ in
                let (id, _) = try await signUp(server, #""username":"myname","password":"mypass""#)
                #expect(try run("ProfilePicture", server) == "picture true true\n")
                let (_, user) = try await server.rest("GET", "/users/\(id)", master: true)
                #expect(user["picture"]?["__type"] == "File")
            }
        }

        @Test func currentUser() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"myname","password":"mypass""#)
                #expect(try run("CurrentUser", server) == "current: myname\nafter logOut: nil\n")
            }
        }

        @Test func anonymousUsers() async throws {
            try await withSDK { server, _ in
                let output = try run("AnonymousUsers", server)
                #expect(output.hasPrefix("Anonymous user logged in.\nconverted ") && output.hasSuffix(", linked: false\n"), "\(output)")
                let (_, users) = try await server.rest("GET", "/users", master: true)
                let user = try #require(users["results"]?.arrayValue?.first)
                #expect(users["results"]?.arrayValue?.count == 1 && user["username"] == "anon-no-more")
                #expect(output.contains("converted \(user["objectId"]?.stringValue ?? "-"),"))  // same user, now with a password
            }
        }

        @Test func automaticUser() async throws {
            try await withSDK { server, _ in
                let output = try run("AutomaticUser", server)
                let (_, users) = try await server.rest("GET", "/users", master: true)
                let user = try #require(users["results"]?.arrayValue?.first)
                #expect(output == "automatic user \(user["objectId"]?.stringValue ?? "-")\n")
                #expect(user["RunCount"] == 1)
            }
        }

        @Test func settingCurrentUser() async throws {
            try await withSDK { server, _ in
                let (_, token) = try await signUp(server, #""username":"myname","password":"mypass""#)
                #expect(try run("SettingCurrentUser", server, ["ROOFTOP_SESSION_TOKEN": token]) == "became myname\n")
                #expect(try run("SettingCurrentUser", server, ["ROOFTOP_SESSION_TOKEN": "r:forged"]) == "become failed (209)\n")
            }
        }

        @Test func userSecurity() async throws {
            try await withSDK { server, _ in
                let (id, _) = try await signUp(server, #""username":"my_username","password":"my_password""#)
                let output = try run("UserSecurity", server)
                #expect(output.hasPrefix("RTError(code 206)"), "\(output)")
                let (_, user) = try await server.rest("GET", "/users/\(id)", master: true)
                #expect(user["username"] == "my_new_username")
            }
        }

        @Test func objectSecurity() async throws {
            try await withSDK { server, _ in
                let (id, _) = try await signUp(server, #""username":"my_username","password":"my_password""#)
                #expect(try run("ObjectSecurity", server).hasPrefix("saved "))
                let owner = JSON.object(["read": true, "write": true])
                let (_, notes) = try await server.rest("GET", "/classes/Note", master: true)
                #expect(notes["results"]?.arrayValue?.first?["ACL"] == .object([id: owner]))
                let (_, posts) = try await server.rest("GET", "/classes/Post", master: true)
                #expect(posts["results"]?.arrayValue?.first?["ACL"] == .object([id: owner, "*": .object(["read": true])]))
                let (_, comments) = try await server.rest("GET", "/classes/Comment", master: true)
                #expect(comments["results"]?.arrayValue?.first?["ACL"] == .object([id: owner, "*": .object(["read": true])]))
            }
        }

        @Test func resettingPasswords() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"myname","password":"mypass","email":"email@example.com""#)
                #expect(try run("ResettingPasswords", server) == "reset requested: true\n")
                let mails = try await server.mail(count: 1)
                #expect(mails.first?.contains("request_password_reset") == true, "\(mails)")
            }
        }

        @Test func querying() async throws {
            var accounts = parseDefaults
            accounts.enforcePrivateUsers = false  // public profiles, as the Parse guide assumes
            try await withSDK(accounts: accounts) { server, _ in
                try await signUp(server, #""username":"ana","password":"p","gender":"female""#)
                try await signUp(server, #""username":"bea","password":"p","gender":"female""#)
                let (carl, _) = try await signUp(server, #""username":"carl","password":"p","gender":"male""#)
                #expect(try run("Querying", server, ["ROOFTOP_USER_ID": carl]) == "found 2 (ana, bea), got carl\n")
            }
        }

        /// With the server's defaults users are private to themselves: the query finds nobody and
        /// another user's profile is not found, which the snippet prints in one line (the article
        /// says so).
        @Test func queryingOnADefaultServer() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"ana","password":"p","gender":"female""#)
                let (carl, _) = try await signUp(server, #""username":"carl","password":"p","gender":"male""#)
                let (status, output) = try Self.snippets.run(
                    "Querying", environment: ["ROOFTOP_SERVER": server.url, "ROOFTOP_APPLICATION_ID": sdkAppId, "ROOFTOP_USER_ID": carl])
                #expect(status == 1 && output == "failed: RTError(code 101): Object not found.\n", "\(output)")
            }
        }

        @Test func associations() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"my_username","password":"my_password""#)
                #expect(try run("Associations", server) == "posts: 1, author: my_username\n")
            }
        }

        @Test func severalUsers() async throws {
            try await withSDK { server, _ in
                try await signUp(server, #""username":"joe","password":"joe's password""#)
                try await signUp(server, #""username":"emma","password":"emma's password""#)
                #expect(try run("SeveralUsers", server) == "[\"joe\", \"emma\"]\nactive loggedIn\nremoved loggedOut\n")
            }
        }
    }
}
