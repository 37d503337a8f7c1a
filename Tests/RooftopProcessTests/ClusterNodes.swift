import Foundation
import Hummingbird
import Logging
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopPostgres
import RooftopServer
import RooftopServices
import RooftopStorage
import RooftopTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Several `rooftop` nodes on one PostgreSQL database, each with its own store (pool, caches,
/// listener) and HTTP port, as separate processes would be.
final class ClusterNodes: Sendable {
    struct Node: Sendable {
        let port: Int
        let store: PostgresStore
        let tasks: [Task<Void, any Error>]
    }

    let nodes: [Node]
    let databaseURL: String

    private init(nodes: [Node], databaseURL: String) {
        self.nodes = nodes
        self.databaseURL = databaseURL
    }

    /// A server on `store` at a free loopback port, once it listens: the port and its task.
    static func serve(
        _ store: any DataStore, accounts: AccountsConfiguration = AccountsConfiguration(), cloud: CloudCode = CloudCode(),
        clock: any ServerClock = WallClock(), webhooks: WebhookSettings = WebhookSettings(),
        configure: (inout ServicesConfiguration, inout HTTPConfiguration) -> Void = { _, _ in },
        files: ((inout FilesConfiguration) -> Void)? = nil, port: Int = 0
    ) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (services, http) = testConfiguration(configure)
        var logger = Logger(label: "node")
        logger.logLevel = .critical
        let (running, continuation) = AsyncStream<Int>.makeStream()
        var dependencies = Dependencies(
            store: store, services: services, http: http, accounts: accounts, passwords: BcryptPasswordHasher(cost: 4),
            tokens: SessionTokens(), clock: clock, logger: logger)
        dependencies.cloud = cloud.handlers
        dependencies.webhooks = webhooks
        if let files, let postgres = store as? PostgresStore {
            // Files in the shared database, as `fileStorage: database` keeps them.
            dependencies.fileStore = PostgresFileStore(store: postgres)
            files(&dependencies.files)
        }
        let app = buildApplication(dependencies, host: "127.0.0.1", port: port) { port in continuation.yield(port) }
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await bound in running {
            port = bound
            break
        }
        return (port, task)
    }

    /// `count` nodes on a new database, each configured by `configure`; `timeout` bounds each
    /// database statement.
    static func start(
        count: Int = 2, timeout: Duration = .seconds(10), accounts: AccountsConfiguration = AccountsConfiguration(),
        cloud: CloudCode = CloudCode(), clock: any ServerClock = WallClock(), webhooks: WebhookSettings = WebhookSettings(),
        configure: (inout ServicesConfiguration, inout HTTPConfiguration) -> Void = { _, _ in },
        files: ((inout FilesConfiguration) -> Void)? = nil
    ) async throws -> ClusterNodes {
        let url = try await TestStores.freshPostgresDatabase()
        var nodes: [Node] = []
        for _ in 0..<count {
            let (store, storeTask) = try await TestStores.postgres(url: url, timeout: timeout)
            let (port, appTask) = try await serve(
                store, accounts: accounts, cloud: cloud, clock: clock, webhooks: webhooks, configure: configure, files: files)
            nodes.append(Node(port: port, store: store, tasks: [appTask, storeTask]))
        }
        // Both listeners up, so no invalidation is sent before someone hears it.
        for node in nodes { try await waitUntil { node.store.cacheBus.isLive } }
        return ClusterNodes(nodes: nodes, databaseURL: url)
    }

    func stop() async {
        for node in nodes {
            node.tasks[0].cancel()
            _ = try? await node.tasks[0].value
            node.tasks[1].cancel()
        }
    }

    /// A REST call to node `index`: the status and the JSON answer.
    func call(
        _ index: Int, _ method: String, _ path: String, body: String? = nil, token: String? = nil, master: Bool = false,
        headers: [String: String] = [:]
    ) async throws -> (Int, JSON) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(nodes[index].port)/parse\(path)")))
        request.httpMethod = method
        request.setValue(testAppId, forHTTPHeaderField: "X-Parse-Application-Id")
        if let token { request.setValue(token, forHTTPHeaderField: "X-Parse-Session-Token") }
        if master { request.setValue(testMasterKey, forHTTPHeaderField: "X-Parse-Master-Key") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.isEmpty ? .null : try JSONParser.parse(data))
    }
}
