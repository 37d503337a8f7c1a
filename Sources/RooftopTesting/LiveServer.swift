package import Foundation
package import HTTPTypes
import Hummingbird
package import HummingbirdTesting
import Logging
package import RooftopConsole
package import RooftopCore
import RooftopCrypto
package import RooftopHTTP
package import RooftopIdentity
import RooftopPostgres
import RooftopSQLite
package import RooftopServer
package import RooftopServices
package import RooftopStorage
import Testing

/// A reply as the tests read it.
package struct Reply {
    /// The HTTP status code.
    package let status: Int
    /// The parsed body (`null` when empty).
    package let json: JSON
}

/// The application id of every test server.
package let testAppId = "test-app"
/// The master key of every test server.
package let testMasterKey = "test-master-key"

/// Scenarios over real loopback HTTP against a real database: a SQLite file in a temporary
/// directory, or a new PostgreSQL database when `ROOFTOP_TEST_STORE=postgres` (`TestStores`).
package protocol LiveServerTest {}

extension LiveServerTest {
    /// Runs `body` against a live server on a fresh database.
    ///
    /// - Parameters:
    ///   - directory: a SQLite file goes there whatever the backend; the caller owns it (to
    ///     inspect the files after the database is closed). Without it, the run's backend in
    ///     a temporary directory, removed afterwards.
    ///   - wrap: decorates the store (to count or fail reads).
    package func withServer(
        configure: (inout ServicesConfiguration, inout HTTPConfiguration) -> Void = { _, _ in },
        accounts: AccountsConfiguration = AccountsConfiguration(), mail: AccountMail? = nil, clock: any ServerClock = WallClock(),
        maintenanceInterval: Duration = .seconds(3600), in directory: URL? = nil, wrap: (any DataStore) -> any DataStore = { $0 },
        files: (inout FilesConfiguration) -> Void = { _ in }, wrapFiles: (any FileStore) -> any FileStore = { $0 },
        auth: [ProviderSettings] = [], cloud: CloudCode = CloudCode(), webhooks: WebhookSettings = WebhookSettings(),
        console: ConsoleConfiguration = ConsoleConfiguration(), dependencies adjust: (inout Dependencies) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let dir = directory ?? temporaryDataDirectory()
        defer { if directory == nil { try? FileManager.default.removeItem(at: dir) } }
        let opened = directory == nil ? try await openStore(in: dir) : try sqliteStore(in: dir)
        let (services, http) = testConfiguration(configure)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        var dependencies = Dependencies(
            store: wrap(opened.store), services: services, http: http, accounts: accounts, passwords: BcryptPasswordHasher(cost: 4),
            tokens: SessionTokens(), mail: mail, clock: clock, maintenanceInterval: maintenanceInterval, logger: logger)
        // Files where the run's database is: PostgreSQL's tables, or a directory beside SQLite's file.
        dependencies.fileStore = wrapFiles(try testFileStore(opened.store, in: dir))
        files(&dependencies.files)
        dependencies.auth = auth
        dependencies.cloud = cloud.handlers
        dependencies.webhooks = webhooks
        dependencies.console = console
        adjust(&dependencies)
        let app = buildApplication(dependencies, host: "127.0.0.1", port: 0)
        do {
            try await app.test(.live) { client in try await body(client) }
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
    }

    /// The file store of a test server on `store`: in the database when it is PostgreSQL, else
    /// in `dir/files`.
    package func testFileStore(_ store: any DataStore, in dir: URL) throws -> any FileStore {
        if let postgres = store as? PostgresStore { return PostgresFileStore(store: postgres) }
        return try DiskFileStore(directory: dir.appendingPathComponent("files").path)
    }

    /// A new, not yet created, directory under the system's temporary directory.
    package func temporaryDataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rooftop-test-\(UUID().uuidString)")
    }

    /// The run's backend: `data.db` in `dir` (created), or a new PostgreSQL database.
    package func openStore(in dir: URL) async throws -> OpenStore {
        try await TestStores.open(in: dir)
    }

    /// `data.db` in `dir` whatever the backend, for tests of SQLite's files.
    package func sqliteStore(in dir: URL) throws -> OpenStore {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: dir.appendingPathComponent("data.db").path)
        return OpenStore(store: store) { try? store.close() }
    }

    /// A REST call with the test application id (and the master key when `master`): its status and JSON.
    package func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, master: Bool = false,
        appId: String = testAppId, headers extra: [String: String] = [:]
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        headers[try #require(HTTPField.Name("X-Parse-Application-Id"))] = appId
        if master { headers[try #require(HTTPField.Name("X-Parse-Master-Key"))] = testMasterKey }
        for (name, value) in extra { headers[try #require(HTTPField.Name(name))] = value }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            let bytes = Array(response.body.readableBytesView)
            return Reply(status: Int(response.status.code), json: bytes.isEmpty ? .null : try JSONParser.parse(bytes))
        }
    }

    /// A fresh database and the object use cases over it.
    package func withObjects(_ body: (Objects, Schemas) async throws -> Void) async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let store = opened.store
        var config = ServicesConfiguration()
        config.allowClientClassCreation = true
        do {
            try await body(
                Objects(store: store, config: config, clock: FixedClock(millisecondsSince1970: 1_700_000_000_000)), Schemas(store: store))
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
    }

    /// The account use cases over a fresh database with a clock the test moves (milliseconds
    /// since 1970 in `now`): for rules about time that wall-clock waits would make flaky.
    package func withAccounts(_ config: AccountsConfiguration, _ body: (Accounts, LockedBox<Int64>) async throws -> Void) async throws {
        let dir = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try await openStore(in: dir)
        let now = LockedBox(Int64(1_700_000_000_000))
        let objects = Objects(
            store: opened.store, config: ServicesConfiguration(), clock: ClosureClock { ParseDate(millisecondsSince1970: now.withLock { $0 }) })
        do {
            let accounts = Accounts(
                objects: objects, hasher: BcryptPasswordHasher(cost: 4), tokens: SessionTokens(), config: config,
                secondFactor: SecondFactorCrypto(codes: TOTPCodes(), box: SecretBox(secrets: ["test master key"])),
                passkeys: PasskeyCrypto(verifier: WebAuthnVerifier(), decoys: DerivedMACKey(secret: "test master key", purpose: .passkeyDecoys)))
            try await body(accounts, now)
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
    }

    /// Percent-encodes a query-string value.
    package func encoded(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
}

/// A value shared by threads.
package final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    /// A box holding `value`.
    package init(_ value: Value) { self.value = value }
    /// Runs `body` on the value under the lock.
    package func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

extension LiveServerTest {
    /// Raw HTTP/1.1 requests (each with `Connection: close`) sent at once on as many connections,
    /// from threads outside Swift's cooperative pool — the test client has one connection, which
    /// would serialize them. Their status codes, in completion order.
    package func parallelRequests(port: Int, _ requests: [String]) async -> [Int] {
        await parallelReplies(port: port, requests).map { Int($0.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    }

    /// The same, with each whole reply (status line, headers and body).
    package func parallelReplies(port: Int, _ requests: [String]) async -> [String] {
        await withCheckedContinuation { continuation in
            let results = LockedBox([String]())
            let group = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            for request in requests {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    guard let connection = try? LoopbackConnection(port: port) else { return }
                    start.wait()
                    connection.send(request)
                    let reply = connection.receiveAll()
                    results.withLock { $0.append(reply) }
                }
            }
            for _ in requests { start.signal() }
            group.notify(queue: .global()) { continuation.resume(returning: results.withLock { $0 }) }
        }
    }
}

/// The tests' server settings (client class creation on, the test keys), then `configure`'s.
package func testConfiguration(
    _ configure: (inout ServicesConfiguration, inout HTTPConfiguration) -> Void
) -> (ServicesConfiguration, HTTPConfiguration) {
    var services = ServicesConfiguration()
    services.allowClientClassCreation = true
    var http = HTTPConfiguration(appId: testAppId, masterKey: testMasterKey)
    configure(&services, &http)
    return (services, http)
}

/// A clock read from a closure: a test that keeps "now" in a box of its own.
package struct ClosureClock: ServerClock {
    /// Reads "now".
    package let read: @Sendable () -> ParseDate
    /// A clock that reads "now" from `read`.
    package init(_ read: @escaping @Sendable () -> ParseDate) { self.read = read }
    /// What `read` says.
    package func now() -> ParseDate { read() }
    /// Sleeps for real.
    package func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
