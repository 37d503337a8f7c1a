import Foundation
import RooftopCore
import RooftopServices
import RooftopTesting
import Testing

/// The command-line examples (`Examples/`, built by `./scripts/test` before the tests) run
/// against a real server and finish their walk-through.
extension SDKTests {
    @Suite struct ExampleTests {
        static let examples = ProgramRunner(
            directory: ProgramRunner.repository.appendingPathComponent("Examples/.build/debug"),
            buildCommand: "swift build --package-path Examples")

        func run(_ name: String, _ server: SDKServer, _ extra: [String] = []) throws -> (Int32, String) {
            try Self.examples.run(name, arguments: ["--server", server.url, "--app-id", sdkAppId, "--storage", "{storage}"] + extra)
        }

        @Test func todoTutorial() async throws {
            try await withSDK { server, _ in
                let (status, output) = try run("TodoTutorial", server)
                #expect(status == 0, "\(output)")
                #expect(output.contains("hanako's todos: []") && output.contains("✓ Each user sees only their own todos."), "\(output)")
                let (_, todos) = try await server.rest("GET", "/classes/TodoTutorial2", master: true)
                #expect(todos["results"]?.arrayValue?.count == 3)
                #expect(todos["results"]?.arrayValue?.allSatisfy { $0["ACL"]?["*"] == nil } == true)  // owner-only ACLs
            }
        }

        @Test func profileCompletion() async throws {
            try await withSDK { server, _ in
                let (status, output) = try run("ProfileCompletion", server)
                #expect(status == 0, "\(output)")
                #expect(output.contains("✓ Profile: John Kotz, LessThanOnce, Intermediate"), "\(output)")
                #expect(output.contains("✓ All's fine!"), "\(output)")
            }
        }

        /// The backend wrapper's `loginWithFacebook`: the example's loopback listener, a command-line
        /// "browser" (`Tests/Support/browse_signin.py`) through the stand-in Facebook's sign-in
        /// form, then `finishSignUp` on the new user.
        @Test func profileCompletionWithFacebook() async throws {
            let idp = try StandInIdentityProvider()
            defer { idp.stop() }
            var accounts = parseDefaults
            accounts.authRedirectURIs = ["http://127.0.0.1/callback"]
            try await withSDK(accounts: accounts, auth: idp.settings()) { server, _ in
                let browser = SMTPTestServer.python + " " + ProgramRunner.repository.appendingPathComponent("Tests/Support/browse_signin.py").path
                let (status, output) = try run("ProfileCompletion", server, ["--browser", browser + " 1001"])
                #expect(status == 0, "\(output)")
                #expect(output.contains("✓ You logged in with Facebook!") && output.contains("✓ Profile: Fay"), "\(output)")
                let (_, users) = try await server.rest("GET", "/users?where=%7B%22firstName%22%3A%22Fay%22%7D", master: true)
                #expect(users["results"]?.arrayValue?.first?["authData"]?["facebook"]?["id"] == "1001")
            }
        }
    }
}
