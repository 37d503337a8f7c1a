package import Logging
package import NIOPosix
package import RooftopConsole
import RooftopCrypto
package import RooftopHTTP
package import RooftopIdentity
package import RooftopServices
package import RooftopStorage
import RooftopWebhooks

/// Everything a server is built from, in one value: the composition root's inputs.
///
/// `rooftop serve` makes one from the configuration; tests and embedding apps make their own
/// (a test clock, a cheaper hasher, a store of their choice) and build the same application.
package struct Dependencies: Sendable {
    /// The database.
    package var store: any DataStore
    /// Settings of the object use cases.
    package var services: ServicesConfiguration
    /// Settings of the REST layer.
    package var http: HTTPConfiguration
    /// Settings of the account use cases.
    package var accounts: AccountsConfiguration
    /// Hashes and verifies passwords (bcrypt when serving).
    package var passwords: any PasswordHasher
    /// Makes session tokens.
    package var tokens: any SessionTokenSource
    /// Mints and checks one-time codes (TOTP) for the console's admins.
    package var oneTimeCodes: any OneTimeCodes = TOTPCodes()
    /// Account mail (verification, reset), when configured.
    package var mail: AccountMail?
    /// The time every expiry and periodic job is measured on.
    package var clock: any ServerClock
    /// How often expired sessions, old audit events and ended rate-limit windows are deleted.
    package var maintenanceInterval: Duration
    /// Where the server logs; the background work logs through it too, so setting it (before
    /// the application is built) makes a new `background` with it.
    package var logger: Logger { didSet { background = BackgroundWork(limit: Self.backgroundLimit, logger: logger) } }
    /// Sign-in providers besides anonymous users (`auth`); none by default.
    package var auth: [ProviderSettings] = []
    /// The client sign-in providers are called with (trusting `outboundCAFile` when serving).
    package var providerHTTP = ProviderHTTP.standard
    /// Where uploaded files are kept; `nil`: this server stores no files (the file routes are 130).
    package var fileStore: (any FileStore)? = nil
    /// Who may upload which files, and how large.
    package var files = FilesConfiguration()
    /// The embedding program's server-side handlers; none for `rooftop` itself.
    package var cloud = CloudHandlers()
    /// Who webhooks may call, and the key they are sent.
    package var webhooks = WebhookSettings()
    /// Sends webhook calls (async-http-client when serving).
    package var webhookTransport: (any WebhookTransport)? = WebhookClient()
    /// The admin console's settings.
    package var console = ConsoleConfiguration()
    /// The database's kind as the console's status page names it.
    package var databaseKind = "SQLite"
    /// The Prometheus registry the metrics port serves, when metrics are on; the console's
    /// status page reads its request rates from it.
    package var metrics: ServerMetrics?
    /// The file outbox's directory when mail is written there instead of sent (the console's
    /// outbox pages read it).
    package var outboxDirectory: String?
    /// The event loops HTTP is served on; nil: NIO's shared group (tests, embedding apps).
    package var eventLoopGroup: MultiThreadedEventLoopGroup?
    /// The account work done after an answer (reset and verification mail, notices), which
    /// `serve` drains (`BackgroundWorkService`) before the mail queue and the database stop.
    package var background: BackgroundWork

    /// How many pieces of account work may run at once.
    static let backgroundLimit = 64

    /// Dependencies with the wall clock and hourly maintenance.
    package init(
        store: any DataStore, services: ServicesConfiguration, http: HTTPConfiguration, accounts: AccountsConfiguration = AccountsConfiguration(),
        passwords: any PasswordHasher, tokens: any SessionTokenSource, mail: AccountMail? = nil, clock: any ServerClock = WallClock(),
        maintenanceInterval: Duration = .seconds(3600), logger: Logger
    ) {
        self.store = store
        self.services = services
        self.http = http
        self.accounts = accounts
        self.passwords = passwords
        self.tokens = tokens
        self.mail = mail
        self.clock = clock
        self.maintenanceInterval = maintenanceInterval
        self.logger = logger
        self.background = BackgroundWork(limit: Self.backgroundLimit, logger: logger)
    }
}
