package import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import RooftopConsole
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopIdentity
import RooftopMail
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
    var objects = Objects(store: store, config: dependencies.services, clock: clock)
    let webhooks = WebhookRegistry(objects: objects, transport: dependencies.webhookTransport, settings: dependencies.webhooks)
    // Before the account use cases take their copy: their writes run the same triggers.
    objects.triggers = TriggerRunner(dependencies.cloud, webhooks: webhooks, clock: clock, logger: dependencies.logger)
    var accountsConfig = dependencies.accounts
    // The application id is a context-specific word no password may be (the app's name comes
    // with the mail settings).
    accountsConfig.contextWords.append(dependencies.http.appId)
    let accounts = Accounts(
        objects: objects, hasher: dependencies.passwords, tokens: dependencies.tokens, config: accountsConfig,
        providers: IdentityProviders.make(dependencies.auth, clock: clock, http: dependencies.providerHTTP), mail: dependencies.mail,
        logger: dependencies.logger, background: dependencies.background,
        secondFactor: SecondFactorCrypto(
            codes: TOTPCodes(), box: SecretBox(secrets: dependencies.accounts.secondFactorKeys + [dependencies.http.masterKey])),
        passkeys: PasskeyCrypto(verifier: WebAuthnVerifier(), decoys: DerivedMACKey(secret: dependencies.http.masterKey, purpose: .passkeyDecoys)))
    let files = Files(
        store: dependencies.fileStore, config: dependencies.files, clock: clock, tokens: dependencies.tokens,
        isAnonymousUser: { userId in try await accounts.isAnonymousOnly(userId) },
        userFileNames: { userId in try await accounts.fileNames(ofUser: userId) },
        referencedNames: { try await FileReferences.referenced(in: store) },
        signing: dependencies.files.access == .signed
            ? FileURLSigning(
                key: DerivedMACKey(secret: dependencies.files.fileKey ?? dependencies.http.masterKey, purpose: .fileURLs),
                lifetime: Int64(dependencies.files.signedURLLifetime), clock: clock) : nil)
    var http = dependencies.http
    http.maxUploadSize = dependencies.files.maxUploadSize
    let globalConfig = GlobalConfig(objects: objects)
    let jobs = JobRunner(dependencies.cloud, objects: objects, clock: clock, logger: dependencies.logger)
    let schemas = Schemas(store: store, maxFieldsPerClass: dependencies.services.maxFieldsPerClass)
    let responder = ParseResponder(
        config: http, objects: objects, schemas: schemas,
        aggregates: Aggregates(store: store, config: dependencies.services), accounts: accounts, files: files,
        functions: CloudFunctions(handlers: dependencies.cloud, objects: objects, webhooks: webhooks, clock: clock, logger: dependencies.logger),
        jobs: jobs, webhooks: webhooks,
        globalConfig: globalConfig, limiter: RateLimiter(rules: dependencies.http.rateLimits, store: store, clock: clock),
        logger: dependencies.logger)
    // Other nodes' invalidations (PostgreSQL's LISTEN/NOTIFY; nothing on SQLite).
    store.cacheBus.onEvent { [roles = objects.roles] event in
        await accounts.sessions.apply(event)
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
    let console = makeConsole(
        dependencies, accounts: accounts,
        data: ConsoleData(objects: objects, schemas: schemas, fileURL: { name, request in responder.fileURL(name, request: request) }),
        policy: accountsConfig.passwordPolicy)
    var app = Application(
        responder: ServerResponder(console: console.map { ($0, dependencies.console.path) }, parse: responder), server: server,
        configuration: .init(address: .hostname(host, port: port), serverName: nil),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        eventLoopGroupProvider: dependencies.eventLoopGroup.map { .shared($0) } ?? .singleton,
        logger: dependencies.logger)
    app.addServices(
        Maintenance(accounts: accounts, store: store, clock: clock, interval: dependencies.maintenanceInterval, logger: dependencies.logger), jobs)
    if let console, dependencies.metrics != nil { app.addServices(RateSampler(console: console, clock: clock)) }
    return app
}

/// The admin console of `dependencies` (nil when turned off).
func makeConsole(_ dependencies: Dependencies, accounts: Accounts, data: ConsoleData, policy: PasswordPolicy) -> ConsoleResponder? {
    let settings = dependencies.console
    let mount = dependencies.http.mountPath
    // A console inside the API's path would hide API routes (and the reverse): refused as off.
    guard settings.isServed(besideAPIAt: mount) else {
        if settings.enabled { dependencies.logger.error("console.path \(settings.path) is inside mountPath \(mount): the console is off") }
        return nil
    }
    let clock = dependencies.clock
    let admins = ConsoleAdmins(
        store: dependencies.store, hasher: dependencies.passwords, codes: dependencies.oneTimeCodes, policy: policy, clock: clock,
        lockoutThreshold: settings.lockoutThreshold,
        lockoutDuration: settings.lockoutDuration)
    let sessions = ConsoleSessions(
        store: dependencies.store, tokens: dependencies.tokens,
        formKey: DerivedMACKey(secret: dependencies.http.masterKey, purpose: .consoleSignInForm), clock: clock, idleTimeout: settings.idleTimeout,
        absoluteTimeout: settings.absoluteTimeout)
    let rule = RateLimiter.Rule(path: "/console-login", methods: ["POST"], count: settings.loginAttemptsPerMinute, window: 60_000, zone: .ip)
    let queue = dependencies.mail?.queue
    var status = ConsoleStatus(
        database: dependencies.databaseKind, mailQueue: { await queue?.currentCounters().pending }, startedAt: clock.now())
    addOperations(to: &status, dependencies)
    return ConsoleResponder(
        config: settings, admins: admins, sessions: sessions, accounts: accounts, data: data,
        limiter: RateLimiter(rules: [rule], store: dependencies.store, clock: clock, namespace: "console:"),
        trustedProxies: dependencies.http.trustedProxies,
        publicURL: dependencies.http.publicURL, status: status, clock: clock, logger: dependencies.logger)
}

/// The server's one responder: the console's paths go to the console, everything else to the
/// Parse API.
struct ServerResponder: HTTPResponder {
    typealias Context = ParseRequestContext
    /// The console (when on) and its path, matched here: an API request costs a prefix test.
    let console: (responder: ConsoleResponder, path: String)?
    let parse: ParseResponder

    func respond(to request: Request, context: Context) async throws -> Response {
        if let (console, path) = console, request.uri.path.hasPrefix(path),
            request.uri.path.utf8.count == path.utf8.count || request.uri.path.dropFirst(path.count).first == "/"
        {
            return await console.respond(to: request, remoteIP: context.remoteIP)
        }
        return try await parse.respond(to: request, context: context)
    }
}
