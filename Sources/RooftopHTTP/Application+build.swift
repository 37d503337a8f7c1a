import Foundation
public import Hummingbird
public import Logging
import RooftopCore
public import RooftopServices
public import RooftopStorage

/// Builds the HTTP application over a store: the one wiring used by `rooftop serve` and tests.
public func buildApplication(
    store: any DataStore, services: ServicesConfiguration, http: HTTPConfiguration, host: String, port: Int, logger: Logger,
    passwords: any PasswordHasher, tokens: any SessionTokenSource, accounts accountsConfig: AccountsConfiguration = AccountsConfiguration(),
    mail: AccountMail? = nil, sessionCleanupInterval: Duration = .seconds(3600),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let clock: @Sendable () -> ParseDate = {
        ParseDate(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
    let objects = Objects(store: store, config: services, clock: clock)
    let accounts = Accounts(objects: objects, hasher: passwords, tokens: tokens, config: accountsConfig, mail: mail)
    let responder = ParseResponder(
        config: http, objects: objects, schemas: Schemas(store: store), aggregates: Aggregates(store: store, config: services),
        accounts: accounts, limiter: RateLimiter(rules: http.rateLimits, store: store, clock: clock), logger: logger)
    // Other nodes' invalidations (PostgreSQL's LISTEN/NOTIFY; nothing on SQLite).
    store.cacheBus.onEvent { [roles = objects.roles] event in
        await accounts.apply(event)
        if event == .roles || event == .everything { await roles.invalidate() }
    }
    var app = Application(
        responder: responder,
        configuration: .init(address: .hostname(host, port: port), serverName: nil),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: logger)
    app.addServices(SessionCleanup(accounts: accounts, store: store, interval: sessionCleanupInterval, logger: logger))
    return app
}
