package import Hummingbird
import HummingbirdCore
import NIOCore
import RooftopCrypto
import RooftopHTTP
import RooftopIdentity
import RooftopServices
import RooftopStorage

/// Builds the server from `dependencies`: the use cases, the REST responder, the other nodes'
/// cache invalidations and the maintenance job — the one wiring used by `rooftop serve`, tests
/// and benchmarks. The database and the mail queue are the caller's to run (see `ServeCommand`).
package func buildApplication(
    _ dependencies: Dependencies, host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let store = dependencies.store
    let clock = dependencies.clock
    var objects = Objects(store: store, config: dependencies.services, clock: { clock.now() })
    let webhooks = WebhookRegistry(objects: objects, transport: dependencies.webhookTransport, settings: dependencies.webhooks)
    // Before the account use cases take their copy: their writes run the same triggers.
    objects.triggers = TriggerRunner(dependencies.cloud, webhooks: webhooks, clock: clock, logger: dependencies.logger)
    var accountsConfig = dependencies.accounts
    // The application id is a context-specific word no password may be (the app's name comes
    // with the mail settings).
    accountsConfig.contextWords.append(dependencies.http.appId)
    let accounts = Accounts(
        objects: objects, hasher: dependencies.passwords, tokens: dependencies.tokens, config: accountsConfig,
        providers: IdentityProviders.make(dependencies.auth, clock: clock), mail: dependencies.mail)
    let files = Files(
        store: dependencies.fileStore, config: dependencies.files, clock: { clock.now() },
        isAnonymousUser: { userId in try await accounts.isAnonymousOnly(userId) },
        userFileNames: { userId in try await accounts.fileNames(ofUser: userId) },
        referencedNames: { try await FileReferences.referenced(in: store) },
        signing: dependencies.files.access == .signed
            ? FileURLSigning(
                key: FileURLKey(secret: dependencies.files.fileKey ?? dependencies.http.masterKey),
                lifetime: Int64(dependencies.files.signedURLLifetime), clock: { clock.now() }) : nil)
    var http = dependencies.http
    http.maxUploadSize = dependencies.files.maxUploadSize
    let globalConfig = GlobalConfig(objects: objects)
    let jobs = JobRunner(dependencies.cloud, objects: objects, clock: clock, logger: dependencies.logger)
    let responder = ParseResponder(
        config: http, objects: objects, schemas: Schemas(store: store, maxFieldsPerClass: dependencies.services.maxFieldsPerClass),
        aggregates: Aggregates(store: store, config: dependencies.services), accounts: accounts, files: files,
        functions: CloudFunctions(handlers: dependencies.cloud, objects: objects, webhooks: webhooks, clock: clock, logger: dependencies.logger),
        jobs: jobs, webhooks: webhooks,
        globalConfig: globalConfig, limiter: RateLimiter(rules: dependencies.http.rateLimits, store: store, clock: { clock.now() }),
        logger: dependencies.logger)
    // Other nodes' invalidations (PostgreSQL's LISTEN/NOTIFY; nothing on SQLite).
    store.cacheBus.onEvent { [roles = objects.roles] event in
        await accounts.apply(event)
        if event == .roles || event == .everything { await roles.invalidate() }
        if event == .config || event == .everything { globalConfig.invalidate() }
        if event == .hooks || event == .everything { webhooks.invalidate() }
    }
    // Slow clients (a head sent byte by byte, a declared body never sent, a silent connection,
    // a body that trickles in) are closed rather than held for ever.
    let http1 = dependencies.http
    let server = HTTPServerBuilder { responder in
        DeadlineHTTP1Channel(
            responder: responder, idle: http1.idleTimeout.map(TimeAmount.init), header: http1.headerTimeout.map(TimeAmount.init),
            body: http1.bodyTimeout.map(TimeAmount.init), logger: dependencies.logger)
    }
    var app = Application(
        responder: responder, server: server,
        configuration: .init(address: .hostname(host, port: port), serverName: nil),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: dependencies.logger)
    app.addServices(
        Maintenance(accounts: accounts, store: store, clock: clock, interval: dependencies.maintenanceInterval, logger: dependencies.logger), jobs)
    return app
}
