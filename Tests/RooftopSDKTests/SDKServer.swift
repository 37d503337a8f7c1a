import Foundation
import Hummingbird
import Logging
import Rooftop
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopIdentity
import RooftopMail
import RooftopSQLite
import RooftopServer
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let sdkAppId = "sdk-app"
let sdkMasterKey = "sdk-master"

/// Every SDK test runs one after another: the SDK, like Parse's, has one current configuration
/// per process.
@Suite(.serialized) struct SDKTests {}

/// A real `rooftop` server for the SDK: a SQLite file in a temporary directory (or a PostgreSQL
/// database, with `ROOFTOP_TEST_STORE=postgres`), HTTP on a free loopback port, mail to a file
/// outbox whose links point at this server.
final class SDKServer: Sendable {
    let port: Int
    let directory: URL
    let task: Task<Void, any Error>
    /// The server's store, for what only an operator does (console admins).
    let store: any DataStore

    var url: String { "http://127.0.0.1:\(port)/parse" }
    var outbox: String { directory.appendingPathComponent("outbox").path }

    private init(port: Int, directory: URL, task: Task<Void, any Error>, store: any DataStore) {
        self.port = port
        self.directory = directory
        self.task = task
        self.store = store
    }

    static func start(
        accounts: AccountsConfiguration = AccountsConfiguration(), configure: (inout ServicesConfiguration) -> Void = { _ in },
        auth: [ProviderSettings] = [], cloud: CloudCode = CloudCode(), files: (inout FilesConfiguration) -> Void = { _ in },
        clock: any ServerClock = WallClock()
    ) async throws -> SDKServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let opened = try await TestStores.open(in: directory)
        let port = try Loopback.freePort()
        var services = ServicesConfiguration()
        services.allowClientClassCreation = true
        configure(&services)
        var logger = Logger(label: "sdk-test")
        logger.logLevel = .critical
        let mail = AccountMail(
            queue: MailQueue(transport: FileOutbox(directory: directory.appendingPathComponent("outbox").path), logger: logger),
            templates: .builtIn, locale: LanguageChooser(), from: "Todo <no-reply@example.com>", appName: "Todo",
            publicServerURL: "http://127.0.0.1:\(port)/parse", appId: sdkAppId)
        let (running, continuation) = AsyncStream<Int>.makeStream()
        // What `rooftop serve` derives in development from its own address: passkeys for
        // `localhost` (browsers refuse an IP address as an RP ID) on this port.
        var accounts = accounts
        if accounts.passkeys.relyingPartyId == nil {
            accounts.passkeys.relyingPartyId = "localhost"
            accounts.passkeys.origins = ["http://localhost:\(port)"]
        }
        var dependencies = Dependencies(
            store: opened.store, services: services, http: HTTPConfiguration(appId: sdkAppId, masterKey: sdkMasterKey), accounts: accounts,
            passwords: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), mail: mail, clock: clock, logger: logger)
        dependencies.auth = auth
        dependencies.cloud = cloud.handlers
        dependencies.fileStore = opened.files
        files(&dependencies.files)
        let app = buildApplication(dependencies, host: "127.0.0.1", port: port) { port in continuation.yield(port) }
        let task = Task {
            do {
                try await app.runService(gracefulShutdownSignals: [])
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        }
        for await _ in running { break }
        return SDKServer(port: port, directory: directory, task: task, store: opened.store)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }

    /// A REST call made outside the SDK ("another device"): the status and the JSON answer.
    func rest(_ method: String, _ path: String, body: String? = nil, token: String? = nil, master: Bool = false) async throws -> (Int, JSON) {
        var request = URLRequest(url: try #require(URL(string: url + path)))
        request.httpMethod = method
        request.setValue(sdkAppId, forHTTPHeaderField: "X-Parse-Application-Id")
        if let token { request.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
        if master { request.setValue(sdkMasterKey, forHTTPHeaderField: "X-Parse-Master-Key") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.isEmpty ? .null : try JSONParser.parse(data))
    }

    /// The messages in the outbox, decoded, oldest first (waits up to 5 s for `count`).
    func mail(count: Int) async throws -> [String] {
        for _ in 0..<100 {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: outbox)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
            if names.count >= count {
                return try names.map { FileOutbox.readable(try String(contentsOfFile: outbox + "/" + $0, encoding: .utf8)) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return []
    }
}

/// Parse Server's defaults: no password policy, so the guides' short example passwords
/// ("mypass") work verbatim. Rooftop's own default policy is tested in RooftopHTTPTests.
var parseDefaults: AccountsConfiguration {
    var accounts = AccountsConfiguration()
    accounts.passwordPolicy.minLength = 1
    accounts.passwordPolicy.refuseCommonPasswords = false
    return accounts
}

/// Runs `body` with the SDK initialized against a fresh server and a fresh storage directory.
func withSDK(
    accounts: AccountsConfiguration = parseDefaults, configure: (inout ServicesConfiguration) -> Void = { _ in },
    auth: [ProviderSettings] = [], cloud: CloudCode = CloudCode(), files: (inout FilesConfiguration) -> Void = { _ in },
    clock: any ServerClock = WallClock(), _ body: (SDKServer, URL) async throws -> Void
) async throws {
    let server = try await SDKServer.start(accounts: accounts, configure: configure, auth: auth, cloud: cloud, files: files, clock: clock)
    let storage = FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-sdk-storage-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: storage) }
    Rooftop.initialize(with: sdkConfiguration(server, storage: storage))
    do {
        try await body(server, storage)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// The SDK's configuration for `server`, keeping users in `storage`.
func sdkConfiguration(_ server: SDKServer, storage: URL, warnings: WarningLog? = nil) -> RTConfiguration {
    var configuration = RTConfiguration(applicationId: sdkAppId, server: server.url)
    configuration.storageDirectory = storage
    configuration.requestTimeout = 10
    if let warnings { configuration.warningHandler = { warnings.append($0) } }
    return configuration
}

/// Warnings the SDK reported.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Waits for a completion handler: `start` gets the function to call with the handler's values.
func callback<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) async -> T {
    await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
}

/// Runs blocking SDK code on a thread of its own, as an app's background thread would.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}
