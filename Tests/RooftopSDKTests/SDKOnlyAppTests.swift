import Foundation
import RooftopCore
import Testing

extension SDKTests {
    /// An app made of the Swift samples of the README and of the SDK's DocC articles, as written,
    /// that depends on this package for the SDK alone (the `Server` trait off): it resolves no
    /// other package, builds only the SDK, and each sample runs against a real server.
    @Suite struct SDKOnlyAppTests {
        /// The documents whose Swift samples must compile and run, in the order they run (the
        /// README's signs up the user the overview's logs in).
        static let documents = ["README.md", "Sources/Rooftop/Rooftop.docc/Rooftop.md", "Sources/Rooftop/Rooftop.docc/GettingStarted.md"]

        /// Every fenced Swift block of `document` that is a program (`import Rooftop`).
        static func samples(in document: String) throws -> [String] {
            let text = try String(contentsOf: ProgramRunner.repository.appendingPathComponent(document), encoding: .utf8)
            var samples: [String] = []
            var current: [Substring]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if current == nil, line == "```swift" {
                    current = []
                } else if let block = current, line == "```" {
                    if block.contains("import Rooftop") { samples.append(block.joined(separator: "\n") + "\n") }
                    current = nil
                } else {
                    current?.append(line)
                }
            }
            return samples
        }

        /// Runs `swift` with `arguments` in `directory`: exit status and output.
        func swift(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
            try ProgramRunner.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments, in: directory)
        }

        @Test(.timeLimit(.minutes(10))) func theDocumentsSamplesBuildAloneAndRun() async throws {
            let samples = try Self.documents.flatMap { try Self.samples(in: $0) }
            #expect(samples.count >= 3, "the README and the overview each show a program")
            let app = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-sdk-app-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: app) }
            // The line the README shows, with this checkout as the path.
            let targets = samples.indices.map {
                #".executableTarget(name: "Sample\#($0)", dependencies: [.product(name: "Rooftop", package: "\#(ProgramRunner.repository.lastPathComponent)")])"#
            }
            let manifest = """
                // swift-tools-version: 6.1
                import PackageDescription
                let package = Package(
                    name: "App",
                    platforms: [.macOS(.v14), .iOS(.v17)],
                    dependencies: [.package(path: "\(ProgramRunner.repository.path)", traits: [])],
                    targets: [\(targets.joined(separator: ",\n"))]
                )
                """
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

            try await withSDK { server, _ in
                for (index, sample) in samples.enumerated() {
                    let folder = app.appendingPathComponent("Sources/Sample\(index)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    // Only the address and the application id change: they are the test server's.
                    let program = sample.replacingOccurrences(of: "http://127.0.0.1:1337/parse", with: server.url)
                        .replacingOccurrences(of: "\"YOUR_APP_ID\"", with: "\"\(sdkAppId)\"")
                    // A `@main` type cannot live in main.swift; top-level code must.
                    let file = program.contains("@main") ? "App.swift" : "main.swift"
                    try program.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                }

                let (status, output) = try swift(["package", "show-dependencies", "--format", "json"], in: app)
                try #require(status == 0, "\(output)")
                // Warnings may come before the JSON document.
                let start = output.firstIndex(of: "{") ?? output.startIndex
                let json = try JSONParser.parse(Array(output[start...].utf8))
                let dependencies = try #require(json["dependencies"]?.arrayValue)
                #expect(dependencies.count == 1, "the app depends on this package only")
                #expect(dependencies.first?["dependencies"]?.arrayValue?.isEmpty == true, "the SDK brought packages with it: \(output)")

                let (built, log) = try swift(["build"], in: app)
                try #require(built == 0, "\(log)")
                #expect(!log.contains("Compiling RooftopServer") && !log.contains("Compiling GRDB") && !log.contains("Compiling NIO"))
                let checkouts = (try? FileManager.default.contentsOfDirectory(atPath: app.appendingPathComponent(".build/checkouts").path)) ?? []
                #expect(checkouts.isEmpty, "fetched: \(checkouts)")

                let runner = ProgramRunner(directory: app.appendingPathComponent(".build/debug"), buildCommand: "swift build")
                var saved: [String] = []
                for index in samples.indices {
                    let (status, output) = try runner.run("Sample\(index)")
                    #expect(status == 0, "sample \(index): \(output)")
                    if output.hasPrefix("saved ") { saved.append(output.dropFirst(6).trimmingCharacters(in: .whitespacesAndNewlines)) }
                }
                // The README's program and the overview's each stored a private note of one user.
                #expect(saved.count == 2 && saved.allSatisfy { !$0.isEmpty }, "\(saved)")
                let (_, notes) = try await server.rest("GET", "/classes/Note", master: true)
                let ids = Set(notes["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? [])
                #expect(ids == Set(saved))
                let (_, anonymous) = try await server.rest("GET", "/classes/Note")
                #expect(anonymous["results"]?.arrayValue?.isEmpty == true, "the notes are private: \(anonymous)")
            }
        }
    }
}
