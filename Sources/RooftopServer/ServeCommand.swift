import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopStorage
import ServiceLifecycle
import UnixSignals

/// `rooftop serve`: runs the server on the embedded SQLite database, or on PostgreSQL.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the server.")
    @OptionGroup var options: ConfigOptions

    func run() async throws {
        var configuration = try options.loadForServing()
        let keys = try KeyFile.loadOrCreate(configuration: &configuration)
        var logger = configuration.logFormat == "json" ? Logger(label: "rooftop") { JSONLogHandler(label: $0) } : Logger(label: "rooftop")
        logger.logLevel = configuration.swiftLogLevel
        let database = try Database.open(configuration, logger: logger)
        for warning in configuration.startupWarnings(appId: keys.appId) { logger.warning("\(warning)") }
        let dependencies = try Dependencies.serving(configuration, keys: keys, store: database.store, logger: logger)
        let mail = dependencies.mail
        let config = configuration
        let createAdmin = StartupBanner.createAdminCommand(options, configuration)
        let adminStore = database.store
        let app = buildApplication(dependencies, host: configuration.host, port: configuration.port) { port in
            // Listening means the database is prepared; a failed look counts as "has an admin".
            let hasAdmin = (try? await ConsoleAdmins.exist(in: adminStore)) ?? true
            StartupBanner(configuration: config, keys: keys, port: port, createAdmin: hasAdmin ? nil : createAdmin).print()
        }
        // Started in this order and stopped in the reverse one: requests end first, then the
        // account work they started (which may queue mail), then queued mail gets its last
        // chance, then PostgreSQL's pool stops; the database closes last.
        // First, so it is the last told to stop: it listens for a second Ctrl-C until the end.
        var services: [any Service] = [SecondInterrupt(gracefulTimeout: configuration.gracefulShutdownTimeout)]
        if let pool = database.pool { services.append(DatabasePoolService(pool: pool)) }
        if let queue = mail?.queue { services.append(MailQueueService(queue: queue, logger: logger)) }
        services.append(BackgroundWorkService(work: dependencies.background))
        services.append(AfterPreparation(prepare: database.prepare, service: app))
        if configuration.metricsPort > 0 {
            let store = database.store
            services.append(
                MetricsEndpoint.application(
                    host: configuration.metricsHost, port: configuration.metricsPort, metrics: .shared, mail: mail?.queue,
                    pool: { store.poolStatistics },
                    logger: logger))
        }
        // The first Ctrl-C (or SIGTERM) lets requests in flight finish; a second Ctrl-C during
        // that stop cuts them off at once (SecondInterrupt).
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A stalled client (half a request, a slow upload) would otherwise hold the stop
        // forever; past the deadline its connection is closed and the stop goes on.
        if configuration.gracefulShutdownTimeout > 0 {
            group.maximumGracefulShutdownDuration = .seconds(configuration.gracefulShutdownTimeout)
        }
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError {
            await database.close()
            throw CommandFailure.listening(error, host: configuration.host, port: configuration.port)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        logger.info("stopped; database closed")
    }
}

/// A service that starts once the database is ready: a database that refuses stops the start,
/// with its reason, before the server listens.
struct AfterPreparation<Wrapped: Service>: Service {
    let prepare: @Sendable () async throws -> Void
    let service: Wrapped

    func run() async throws {
        try await prepare()
        try await service.run()
    }
}

/// Queued mail as a member of the service group: when the server stops, messages still queued
/// get a few seconds to go out.
struct MailQueueService: Service {
    let queue: MailQueue
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        let lost = await queue.finish(within: .seconds(5))
        if lost > 0 { logger.warning("\(lost) queued mail message(s) not delivered before shutdown") }
    }
}
