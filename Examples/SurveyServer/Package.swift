// swift-tools-version: 6.1
import PackageDescription

// An app's own server binary with its server-side logic, and the app that calls it:
//   swift build --package-path Examples/SurveyServer
//   Examples/SurveyServer/.build/debug/survey-server serve --port 1338 --data-dir Examples/SurveyServer/data
//   Examples/SurveyServer/.build/debug/survey-app --server http://127.0.0.1:1338/parse --app-id <appId>
let package = Package(
    name: "SurveyServer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    // The default traits: the server, which survey-server embeds.
    dependencies: [.package(name: "rooftop", path: "../..")],
    targets: [
        .executableTarget(name: "survey-server", dependencies: [.product(name: "RooftopServer", package: "rooftop")]),
        .executableTarget(name: "survey-app", dependencies: [.product(name: "Rooftop", package: "rooftop")]),
    ],
    swiftLanguageModes: [.v6]
)
