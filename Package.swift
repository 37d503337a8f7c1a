// swift-tools-version: 6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // An import is internal unless it says otherwise: a target's API shows only the modules it
    // chose to (`public import` in the SDK and Core, `package import` between server targets).
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The server's dependencies are all behind the default `Server` trait: an app that depends on
/// this package for the SDK alone turns it off (`traits: []`), and SwiftPM then leaves every one
/// of them out of its resolution — the SDK needs Foundation only.
let server: TargetDependencyCondition? = .when(traits: ["Server"])
let log: Target.Dependency = .product(name: "Logging", package: "swift-log", condition: server)
let lifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server)
func nio(_ module: String) -> Target.Dependency { .product(name: module, package: "swift-nio", condition: server) }

let package = Package(
    name: "rooftop",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "rooftop", targets: ["RooftopMain"]),
        // The SDK an app links (with the Server trait off, nothing else is resolved).
        .library(name: "Rooftop", targets: ["Rooftop"]),
        // What a Swift program that embeds the server links: the `rooftop` command line as a
        // library. Every other target is internal to this package (`package` access).
        .library(name: "RooftopServer", targets: ["RooftopServer"]),
    ],
    traits: [
        .trait(name: "Server", description: "The server, its commands and their dependencies; an app that only uses the SDK turns it off."),
        .trait(
            name: "Benchmarks",
            description: "The micro-benchmarks (Benchmarks/RooftopBenchmarks) and the benchmark package; off by default.",
            enabledTraits: ["Server"]),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // 4.x: jwt-kit 5.8.0 needs swift-crypto 4.1 or later.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Identity providers (RooftopIdentity only): jwt-kit 5.8.0 is a security release.
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // The HTML templates of the console and the hosted pages (RooftopHTTP only).
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        // Micro-benchmarks only, behind the Benchmarks trait.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Build-time only: `swift package generate-documentation` (scripts/docs) for the SDK's DocC.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        .target(name: "RooftopCore", swiftSettings: upcoming),
        .target(name: "RooftopStorage", dependencies: ["RooftopCore"], swiftSettings: upcoming),
        // The Swift SDK: Foundation (URLSession) and the shared JSON and error types only.
        .target(name: "Rooftop", dependencies: ["RooftopCore"], swiftSettings: upcoming),
        .target(
            name: "RooftopSQLite",
            dependencies: ["RooftopCore", "RooftopStorage", .product(name: "GRDB", package: "GRDB.swift", condition: server)],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that sees postgres-nio.
        .target(
            name: "RooftopPostgres",
            dependencies: [
                "RooftopCore", "RooftopStorage", .product(name: "PostgresNIO", package: "postgres-nio", condition: server), log, lifecycle,
            ],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that speaks S3 and sees async-http-client (SigV4's HMAC comes
        // from swift-crypto).
        .target(
            name: "RooftopS3",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopOutbound",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server), nio("NIOCore"), nio("NIOHTTP1"),
            ],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that speaks SMTP, and with RooftopOutbound the only ones that see NIOSSL.
        .target(
            name: "RooftopMail",
            dependencies: [
                "RooftopCore", nio("NIOCore"), nio("NIOPosix"), nio("NIOConcurrencyHelpers"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server), log,
            ],
            swiftSettings: upcoming
        ),
        .target(
            name: "RooftopServices",
            dependencies: ["RooftopCore", "RooftopStorage", "RooftopMail", log, lifecycle],
            resources: [.embedInCode("Resources/common-passwords.txt")],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that sees bcrypt, and swift-crypto but for RooftopS3's request
        // signing (password hashes, session tokens, every random secret).
        .target(
            name: "RooftopCrypto",
            dependencies: [
                "RooftopCore", "RooftopServices", .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                // RSA public keys for passkeys' RS256 (the product jwt-kit already brings in).
                .product(name: "CryptoExtras", package: "swift-crypto", condition: server), nio("NIOCore"), nio("NIOPosix"),
            ],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that makes async-http-client clients and sees NIOSSL for them:
        // every outbound HTTP client (providers, webhooks, S3) trusts the same roots.
        .target(
            name: "RooftopOutbound",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server), nio("NIOConcurrencyHelpers"),
            ],
            swiftSettings: upcoming
        ),
        // Fenced: the only target that sees jwt-kit and async-http-client (sign-in providers: ID
        // tokens against JWKS, OIDC discovery, Facebook's and GitHub's token endpoints).
        .target(
            name: "RooftopIdentity",
            dependencies: [
                "RooftopCore", "RooftopServices", "RooftopOutbound", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                // Only for Facebook's appsecret_proof (HMAC-SHA256) and hashed nonces (SHA-256).
                .product(name: "Crypto", package: "swift-crypto", condition: server), nio("NIOCore"), nio("NIOHTTP1"), nio("NIOFoundationCompat"),
                log,
            ],
            swiftSettings: upcoming
        ),
        // Fenced: outbound webhook calls (async-http-client), behind RooftopServices' port.
        .target(
            name: "RooftopWebhooks",
            dependencies: [
                "RooftopServices", "RooftopOutbound", .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                nio("NIOCore"),
                nio("NIOHTTP1"),
            ],
            swiftSettings: upcoming
        ),
        // The route table, the one error renderer and the hosted pages: HTTP over the use cases,
        // without Storage or Mail. Fenced: the only target that sees swift-mustache (the hosted
        // pages' and the console's templates, `TemplateLibrary`).
        .target(
            name: "RooftopHTTP",
            dependencies: [
                "RooftopCore", "RooftopServices", .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server), nio("NIOCore"), nio("NIOHTTP1"), log,
                .product(name: "Metrics", package: "swift-metrics", condition: server),
                .product(name: "Mustache", package: "swift-mustache", condition: server),
            ],
            // The hosted pages' templates, style sheet and script (Resources/pages).
            resources: [.embedInCode("Resources")],
            swiftSettings: upcoming
        ),
        // The admin console under `/console`:
        // server-rendered pages over the use cases, with its own admins and sessions.
        .target(
            name: "RooftopConsole",
            dependencies: [
                "RooftopCore", "RooftopServices", "RooftopHTTP",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server), nio("NIOCore"), log,
            ],
            // Its templates, rendered by RooftopHTTP's TemplateLibrary.
            resources: [.embedInCode("Resources")],
            swiftSettings: upcoming
        ),
        // The composition root (Dependencies, buildApplication), the configuration table and the
        // commands: the library an embedding app links, and the `rooftop` executable's body.
        .target(
            name: "RooftopServer",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopServices", "RooftopHTTP", "RooftopSQLite", "RooftopPostgres", "RooftopCrypto",
                "RooftopMail", "RooftopIdentity", "RooftopS3", "RooftopWebhooks", "RooftopConsole",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: server), nio("NIOCore"), nio("NIOPosix"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: server),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: server), log, lifecycle,
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: server),
                // Fenced: the only target that sees swift-prometheus (the metrics port).
                .product(name: "Metrics", package: "swift-metrics", condition: server),
                .product(name: "Prometheus", package: "swift-prometheus", condition: server),
            ],
            swiftSettings: upcoming
        ),
        // The `rooftop` executable: only the entry point.
        .executableTarget(
            name: "RooftopMain",
            dependencies: ["RooftopServer"],
            swiftSettings: upcoming),
        // What several test targets share (not a product): the storage conformance suites, the test
        // stores and clock, the stand-in peers, and the live test server with its helpers.
        .target(
            name: "RooftopTesting",
            dependencies: [
                "RooftopCore", "RooftopServices", "RooftopStorage", "RooftopSQLite", "RooftopPostgres", "RooftopIdentity", "RooftopCrypto",
                "RooftopMail", "RooftopHTTP", "RooftopConsole", "RooftopServer",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server), nio("NIOConcurrencyHelpers"), nio("NIOCore"), log,
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                // The software passkey's keys and signatures (SoftwarePasskey).
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "CryptoExtras", package: "swift-crypto", condition: server),
            ],
            swiftSettings: upcoming
        ),
        // Micro-benchmarks: `swift package --traits Benchmarks --disable-sandbox benchmark`. With
        // the trait off (the default) the target is an empty program and resolves nothing more.
        .executableTarget(
            name: "RooftopBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark", condition: .when(traits: ["Benchmarks"])),
                "RooftopCore", "RooftopStorage", "RooftopSQLite", "RooftopServices", "RooftopHTTP", "RooftopServer", "RooftopCrypto",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Benchmarks"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Benchmarks"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Benchmarks"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Benchmarks"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Benchmarks"])),
            ],
            path: "Benchmarks/RooftopBenchmarks",
            swiftSettings: upcoming
        ),
        // The floor under the shared workload (`scripts/bench`): a bare Hummingbird handler and a
        // bare GRDB point read, measured in the same run as the server (docs/benchmarks.md §0).
        .executableTarget(
            name: "RooftopFloor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "GRDB", package: "GRDB.swift", condition: server), nio("NIOCore"), nio("NIOPosix"),
            ],
            path: "Benchmarks/RooftopFloor",
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "RooftopSDKTests",
            dependencies: [
                "Rooftop", "RooftopCore", "RooftopServices", "RooftopHTTP", "RooftopServer", "RooftopSQLite", "RooftopTesting", "RooftopCrypto",
                "RooftopMail", "RooftopIdentity", "RooftopConsole", "RooftopStorage",
                .product(name: "Hummingbird", package: "hummingbird", condition: server), log,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "RooftopServerTests",
            dependencies: [
                "RooftopServer", "RooftopCore", "RooftopHTTP", "RooftopServices", "RooftopIdentity",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: server),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(name: "RooftopCoreTests", dependencies: ["RooftopCore"], swiftSettings: upcoming),
        .testTarget(
            name: "RooftopCryptoTests", dependencies: ["RooftopCore", "RooftopServices", "RooftopCrypto", "RooftopTesting"], swiftSettings: upcoming),
        .testTarget(name: "RooftopMailTests", dependencies: ["RooftopCore", "RooftopMail", "RooftopTesting", log], swiftSettings: upcoming),
        .testTarget(
            name: "RooftopStorageTests",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopTesting", "RooftopSQLite", "RooftopPostgres", "RooftopS3",
                .product(name: "GRDB", package: "GRDB.swift", condition: server),
            ],
            swiftSettings: upcoming
        ),
        // Use cases tested without HTTP, over a real store.
        .testTarget(
            name: "RooftopServicesTests",
            dependencies: ["RooftopCore", "RooftopStorage", "RooftopServices", "RooftopCrypto", "RooftopTesting", log],
            swiftSettings: upcoming
        ),
        // The console over the in-process server: no child process, no browser.
        .testTarget(
            name: "RooftopConsoleTests",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopServices", "RooftopHTTP", "RooftopServer", "RooftopSQLite", "RooftopTesting",
                "RooftopCrypto", "RooftopMail", "RooftopConsole",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server), nio("NIOCore"), log,
            ],
            swiftSettings: upcoming
        ),
        // The REST API over the in-process server on loopback: no child process, no browser.
        .testTarget(
            name: "RooftopHTTPTests",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopServices", "RooftopHTTP", "RooftopServer", "RooftopSQLite", "RooftopTesting",
                "RooftopCrypto", "RooftopMail", lifecycle,
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                nio("NIOCore"), nio("NIOHTTP1"), log,
            ],
            swiftSettings: upcoming
        ),
        // What starts a process or a real peer: the `rooftop` binary, several nodes, haproxy,
        // Chromium, the SMTP server and the identity provider (Python), curl. Run one at a time.
        .testTarget(
            name: "RooftopProcessTests",
            dependencies: [
                "RooftopCore", "RooftopStorage", "RooftopServices", "RooftopHTTP", "RooftopServer", "RooftopSQLite", "RooftopPostgres",
                "RooftopTesting", "RooftopCrypto", "RooftopMail", "RooftopIdentity", "RooftopConsole", "RooftopWebhooks", "RooftopOutbound",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                nio("NIOCore"), log,
            ],
            swiftSettings: upcoming
        ),
    ],
    swiftLanguageModes: [.v6]
)
