import ArgumentParser
import Foundation
import Hummingbird
import Logging
import RooftopAuth
import RooftopCore
import RooftopHTTP
import RooftopMail
import RooftopSQLite
import RooftopServices
import ServiceLifecycle
import UnixSignals

/// `rooftop serve`: runs the server on the embedded SQLite database, or on PostgreSQL.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the server.")
    @OptionGroup var options: ConfigOptions

    func run() async throws {
        var configuration = try options.loadForServing()
        let keys = try KeyFile.loadOrCreate(configuration: &configuration)
        var logger = Logger(label: "rooftop")
        logger.logLevel = configuration.swiftLogLevel
        let database = try await Database.open(configuration, logger: logger)
        let store = database.store
        var http = configuration.http(appId: keys.appId, masterKey: keys.masterKey)
        let mail: AccountMail?
        do {
            http.pages = try configuration.pageTemplates()
            mail = try configuration.accountMail(appId: keys.appId, pages: http.pages, logger: logger)
        } catch {
            throw ValidationError("\(error)")
        }
        let config = configuration
        let app = buildApplication(
            store: store, services: configuration.services, http: http, host: configuration.host, port: configuration.port,
            logger: logger, passwords: BcryptPasswordHasher(cost: 10), tokens: SessionTokens(), accounts: configuration.accounts, mail: mail,
            onServerRunning: { port in KeyFile.printBanner(config, keys: keys, port: port) })
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A stalled client (half a request, a slow upload) would otherwise hold the stop
        // forever; past the deadline its connection is closed and the stop goes on.
        if configuration.gracefulShutdownTimeout > 0 {
            group.maximumGracefulShutdownDuration = .seconds(configuration.gracefulShutdownTimeout)
        }
        try await ServiceGroup(configuration: group).run()
        if let queue = mail?.queue {
            let lost = await queue.finish(within: .seconds(5))
            if lost > 0 { logger.warning("\(lost) queued mail message(s) not delivered before shutdown") }
        }
        await database.close()
        logger.info("stopped; database closed")
    }
}
