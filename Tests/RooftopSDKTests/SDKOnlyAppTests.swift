import Foundation
import RooftopCore
import Testing

/// An app that depends on this package for the SDK alone (the `Server` trait off) resolves no
/// other package and builds only the SDK: none of the server's dependencies comes with it.
@Suite struct SDKOnlyAppTests {
    /// Runs `swift` with `arguments` in `directory`: exit status and output.
    func swift(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
        try ProgramRunner.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments, in: directory)
    }

    @Test(.timeLimit(.minutes(10))) func anAppUsingOnlyTheSDKResolvesNothingElse() throws {
        let app = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-sdk-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: app) }
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        // The line the README shows, with this checkout as the path.
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "App",
                platforms: [.macOS(.v14), .iOS(.v17)],
                dependencies: [.package(path: "\(ProgramRunner.repository.path)", traits: [])],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "Rooftop", package: "\(ProgramRunner.repository.lastPathComponent)")])]
            )
            """
        try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let program = """
            import Rooftop

            func start() async throws {
                Rooftop.initialize(applicationId: "app", clientKey: nil, server: "http://127.0.0.1:1/parse")
                let note = RTObject(className: "Note")
                note["content"] = "This note is private!"
                _ = note
            }
            """
        try program.write(to: app.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)

        let (status, output) = try swift(["package", "show-dependencies", "--format", "json"], in: app)
        try #require(status == 0, "\(output)")
        // Warnings may come before the JSON document.
        let start = output.firstIndex(of: "{") ?? output.startIndex
        let json = try JSONParser.parse(Array(output[start...].utf8))
        let dependencies = try #require(json["dependencies"]?.arrayValue)
        #expect(dependencies.count == 1, "the app depends on this package only")
        #expect(dependencies.first?["dependencies"]?.arrayValue?.isEmpty == true, "the SDK brought packages with it: \(output)")

        let (built, log) = try swift(["build"], in: app)
        #expect(built == 0, "\(log)")
        #expect(!log.contains("Compiling RooftopServer") && !log.contains("Compiling GRDB") && !log.contains("Compiling NIO"))
        let checkouts = (try? FileManager.default.contentsOfDirectory(atPath: app.appendingPathComponent(".build/checkouts").path)) ?? []
        #expect(checkouts.isEmpty, "fetched: \(checkouts)")
    }
}
