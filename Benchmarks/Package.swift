// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the repo is cloned.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Kept apart from the main package so `swift build` there never compiles the benchmark harness.
let package = Package(
    name: "rooftop-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "RooftopBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RooftopCore", package: root),
                .product(name: "RooftopStorage", package: root),
                .product(name: "RooftopSQLite", package: root),
                .product(name: "RooftopServices", package: root),
                .product(name: "RooftopHTTP", package: root),
                .product(name: "RooftopServer", package: root),
                .product(name: "RooftopCrypto", package: root),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/RooftopBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
