// swift-tools-version: 6.1
import PackageDescription

// Command-line examples of the Rooftop SDK, run against a `rooftop serve`:
//   swift run TodoTutorial --server http://127.0.0.1:1337/parse --app-id <appId>
//   swift run ProfileCompletion --server http://127.0.0.1:1337/parse --app-id <appId>
let package = Package(
    name: "RooftopExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    // The SDK alone: the server trait off, so none of the server's dependencies is resolved.
    dependencies: [.package(name: "rooftop", path: "..", traits: [])],
    targets: [
        .target(name: "ExampleSupport", dependencies: [.product(name: "Rooftop", package: "rooftop")]),
        .executableTarget(name: "TodoTutorial", dependencies: ["ExampleSupport", .product(name: "Rooftop", package: "rooftop")]),
        .executableTarget(name: "ProfileCompletion", dependencies: ["ExampleSupport", .product(name: "Rooftop", package: "rooftop")]),
    ],
    swiftLanguageModes: [.v6]
)
