import Foundation
import Logging
import PostgresNIO
import RooftopCore
import RooftopStorage

/// Cache invalidations between nodes through PostgreSQL's `LISTEN`/`NOTIFY`.
///
/// One connection outside the pool listens; while it is down the bus is not live (caches are
/// bypassed), and when it is back every cache is dropped, since events may have been missed.
final class PostgresCacheBus: CacheBus {
    static let channel = "rooftop_cache"
    /// Ids this node's own notifications carry, so it can ignore them.
    let node = String(UUID().uuidString.prefix(8))
    let client: PostgresClient
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    let timeout: Duration
    private let state = LockedValue(State())

    private struct State {
        var live = false
        var handlers: [@Sendable (CacheEvent) async -> Void] = []
    }

    init(client: PostgresClient, configuration: PostgresConnection.Configuration, logger: Logger, timeout: Duration) {
        self.client = client
        self.timeout = timeout
        self.configuration = configuration
        self.logger = logger
    }

    var isLive: Bool { state.withLock { $0.live } }

    func onEvent(_ handler: @escaping @Sendable (CacheEvent) async -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// `NOTIFY`; a failure is logged (the database is unreachable, so the other nodes' listeners
    /// are down too and will drop their caches when they reconnect).
    func publish(_ event: CacheEvent) async {
        for payload in Self.payloads(event) {
            do {
                try await withDeadline(timeout) { [client, logger, node] in
                    _ = try await client.query("SELECT pg_notify(\(Self.channel), \(node + " " + payload))", logger: logger)
                }
            } catch {
                logger.error("cache invalidation not sent", metadata: ["error": "\(PostgresStore.describe(error))"])
            }
        }
    }

    /// Listens until cancelled, reconnecting with a growing delay (0.1 s to 2 s).
    func listen() async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                do {
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: Self.channel) { notifications in
                            state.withLock { $0.live = true }
                            delay = .milliseconds(100)
                            await deliver(.everything)
                            for try await notification in notifications { await receive(notification.payload) }
                        }
                    } onCancel: {
                        let _: EventLoopFuture<Void> = connection.close()
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("cache bus disconnected", metadata: ["error": "\(PostgresStore.describe(error))"]) }
                }
                // A connection must be closed before it is released, whatever ended the listening.
                try? await connection.close()
            } catch {
                if !Task.isCancelled { logger.warning("cache bus cannot connect", metadata: ["error": "\(PostgresStore.describe(error))"]) }
            }
            state.withLock { $0.live = false }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }

    private func receive(_ payload: String) async {
        let parts = payload.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0] != node, let event = Self.event(parts[1]) else { return }
        await deliver(event)
    }

    private func deliver(_ event: CacheEvent) async {
        for handler in state.withLock({ $0.handlers }) { await handler(event) }
    }

    /// `kind:value`, split so each fits PostgreSQL's 8000-byte payload limit.
    static func payloads(_ event: CacheEvent) -> [String] {
        switch event {
        case .sessionToken(let digest): ["t:" + digest]
        case .sessions(let ids): stride(from: 0, to: ids.count, by: 200).map { "s:" + ids[$0..<min($0 + 200, ids.count)].joined(separator: ",") }
        case .userSessions(let userId): ["u:" + userId]
        case .roles: ["r:"]
        case .schema: ["c:"]
        case .config: ["g:"]
        case .hooks: ["h:"]
        case .everything: ["*:"]
        }
    }

    static func event(_ payload: String) -> CacheEvent? {
        let value = String(payload.dropFirst(2))
        switch payload.prefix(2) {
        case "t:": return .sessionToken(digest: value)
        case "s:": return .sessions(ids: value.split(separator: ",").map(String.init))
        case "u:": return .userSessions(userId: value)
        case "r:": return .roles
        case "c:": return .schema
        case "g:": return .config
        case "h:": return .hooks
        case "*:": return .everything
        default: return nil
        }
    }
}
