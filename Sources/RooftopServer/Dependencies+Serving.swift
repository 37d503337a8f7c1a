import Foundation
import Logging
import NIOCore
import RooftopCore
import RooftopCrypto
import RooftopHTTP
import RooftopIdentity
import RooftopMail
import RooftopServices
import RooftopStorage
import RooftopWebhooks

extension Dependencies {
    /// Everything `serve` runs on, built from the configuration in this one place: the
    /// configuration only says what it wants; the transports (SMTP or the outbox, the outbound
    /// HTTP clients, the file store, the event loops) are made here.
    static func serving(_ configuration: ServerConfiguration, keys: KeyFile, store: any DataStore, logger: Logger) throws -> Dependencies {
        var http = configuration.http(appId: keys.appId, masterKey: keys.masterKey)
        http.metrics.enabled = configuration.metricsPort > 0
        let mail: AccountMail?
        do {
            http.pages = try configuration.pageTemplates()
            mail = try accountMail(configuration, appId: keys.appId, pages: http.pages, logger: logger)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError("\(error)")
        }
        var accounts = configuration.accounts
        accounts.passkeys = configuration.effectivePasskeys
        var dependencies = Dependencies(
            store: store, services: configuration.services, http: http, accounts: accounts,
            passwords: BcryptPasswordHasher(cost: 10), tokens: SessionTokens(), mail: mail, logger: logger)
        let loops = EventLoops.count(configuration)
        dependencies.eventLoopGroup = EventLoops.group(count: loops)
        logger.info("serving HTTP on \(loops) event loop\(loops == 1 ? "" : "s") (\(System.coreCount) cores)")
        dependencies.fileStore = try Database.fileStore(configuration, store: store)
        dependencies.files = configuration.files
        dependencies.console = configuration.console
        if configuration.metricsPort > 0 { dependencies.metrics = .shared }
        if mail != nil, configuration.mail.transport == "outbox" { dependencies.outboxDirectory = configuration.dataDir + "/outbox" }
        if configuration.databaseURI != nil { dependencies.databaseKind = "PostgreSQL" }
        dependencies.auth = configuration.auth
        do {
            dependencies.providerHTTP = try ProviderHTTP(caFile: configuration.outboundCAFile)
            dependencies.webhookTransport = try WebhookClient(caFile: configuration.outboundCAFile)
        } catch {
            throw CommandFailure(String(describing: error), status: CommandFailure.configuration)
        }
        // The embedding program's handlers (RooftopCommandLine.main(cloud:)); none for `rooftop`.
        dependencies.cloud = CloudCode.current.handlers
        if let problem = dependencies.cloud.problems.first { throw CommandFailure(problem, status: CommandFailure.software) }
        dependencies.cloud.timeout = .seconds(configuration.handlerTimeout)
        dependencies.webhooks.key = configuration.webhookKey
        dependencies.webhooks.allowedHosts = configuration.webhookHosts
        dependencies.webhooks.timeout = .seconds(configuration.handlerTimeout)
        return dependencies
    }

    /// The account mail, or nil when no link can be built; throws when verification is asked for
    /// without a usable `publicServerURL`, or with broken templates.
    /// Password reset works whenever a link base exists (always in development); without one,
    /// `/requestPasswordReset` answers 1 as Parse does.
    static func accountMail(_ configuration: ServerConfiguration, appId: String, pages: PageTemplates = .builtIn, logger: Logger) throws
        -> AccountMail?
    {
        guard let url = configuration.effectivePublicServerURL else {
            if configuration.accounts.verifyUserEmails {
                throw ConfigError("verifyUserEmails needs publicServerURL (the https URL clients and emailed links use)")
            }
            return nil
        }
        guard let scheme = URLComponents(string: url)?.scheme, ["http", "https"].contains(scheme) else {
            throw ConfigError("publicServerURL must be an http or https URL")
        }
        let settings = configuration.mail
        let transport: any MailTransport =
            settings.transport == "smtp"
            ? SMTPClient(
                configuration: .init(
                    host: settings.host ?? "localhost", port: settings.port ?? (settings.security == .tls ? 465 : 587),
                    security: settings.security, username: settings.username, password: settings.password, timeout: settings.timeout,
                    caFile: settings.caFile))
            : FileOutbox(directory: configuration.dataDir + "/outbox")
        let templates: MailTemplates
        do {
            templates = try MailTemplates(directory: settings.templatesDir)
        } catch {
            throw ConfigError("mail.templatesDir: \(error)")
        }
        let name = configuration.appName ?? appId
        return AccountMail(
            queue: MailQueue(transport: transport, logger: logger), templates: templates,
            locale: LanguageChooser(available: templates.languages.union(pages.languages), fallback: settings.defaultLocale),
            from: settings.from ?? "\(name) <no-reply@localhost>",
            appName: name, publicServerURL: url, appId: appId)
    }
}
