import Foundation
import RooftopCore
import Testing

/// The command-line examples (`Examples/`, built by `./scripts/test` before the tests) run
/// against a real server and finish their walk-through.
extension SDKTests {
    @Suite struct ExampleTests {
        static let examples = ProgramRunner(
            directory: ProgramRunner.repository.appendingPathComponent("Examples/.build/debug"),
            buildCommand: "swift build --package-path Examples")

        func run(_ name: String, _ server: SDKServer) throws -> (Int32, String) {
            try Self.examples.run(name, arguments: ["--server", server.url, "--app-id", sdkAppId, "--storage", "{storage}"])
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
                #expect(output.contains("✓ Profile: John Kotz, Optional(ProfileCompletion.User.SurveyResponse.Frequency.LessThanOnce)"), "\(output)")
                #expect(output.contains("✓ All's fine!"), "\(output)")
            }
        }
    }
}
