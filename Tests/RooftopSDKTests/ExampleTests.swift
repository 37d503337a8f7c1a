import Foundation
import RooftopCore
import Testing

/// The command-line examples (`Examples/`, built by `./scripts/test` before the tests) run
/// against a real server and finish their walk-through.
extension SDKTests {
    @Suite struct ExampleTests {
        static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/.build/debug")

        func run(_ name: String, _ server: SDKServer) throws -> (Int32, String) {
            let binary = Self.examples.appendingPathComponent(name)
            try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the examples first: swift build --package-path Examples")
            let storage = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-example-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: storage) }
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--server", server.url, "--app-id", sdkAppId, "--storage", storage.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
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
