import Foundation
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
package import RooftopCore
import RooftopHTTP
package import RooftopServices

/// What the status page shows, from the composition root.
package struct ConsoleStatus: Sendable {
    /// The database's kind (`SQLite`, `PostgreSQL`).
    package var database: String
    /// Mail messages waiting to be sent; nil without mail.
    package var mailQueue: @Sendable () async -> Int?
    /// When the server started.
    package var startedAt: ParseDate
    /// The metrics registry in Prometheus's text format; nil when metrics are off.
    package var metrics: (@Sendable () async -> String)?
    /// The request counters' samples behind the status page's rates.
    package var rates = RequestRates()
    /// The whole database as `rooftop export` writes it.
    package var export: ConsoleExport?
    /// A consistent copy of the database file (SQLite only; nil on PostgreSQL).
    package var backup: ConsoleBackup?
    /// The mail outbox, when mail is written to files instead of sent.
    package var outbox: ConsoleOutbox?

    /// Creates the status source.
    package init(database: String, mailQueue: @escaping @Sendable () async -> Int?, startedAt: ParseDate) {
        self.database = database
        self.mailQueue = mailQueue
        self.startedAt = startedAt
    }
}

/// The admin console under `config.path`: server-rendered pages over the account use cases,
/// for signed-in console admins only. Every answer carries a strict CSP (scripts from this
/// server only, never inline), no framing and `no-store`; every POST carries the session's
/// CSRF token; read-only admins are refused every change with 403.
package struct ConsoleResponder: Sendable {
    let config: ConsoleConfiguration
    let admins: ConsoleAdmins
    let sessions: ConsoleSessions
    let accounts: Accounts
    let data: ConsoleData
    let limiter: RateLimiter
    let trustedProxies: [String]
    let publicURL: String?
    let status: ConsoleStatus
    let clock: any ServerClock
    /// Where failed pages are logged (the server's logger).
    let logger: Logger

    /// Creates the console.
    package init(
        config: ConsoleConfiguration, admins: ConsoleAdmins, sessions: ConsoleSessions, accounts: Accounts, data: ConsoleData, limiter: RateLimiter,
        trustedProxies: [String], publicURL: String?, status: ConsoleStatus, clock: any ServerClock,
        logger: Logger
    ) {
        self.config = config
        self.admins = admins
        self.sessions = sessions
        self.accounts = accounts
        self.data = data
        self.limiter = limiter
        self.trustedProxies = trustedProxies
        self.publicURL = publicURL
        self.status = status
        self.clock = clock
        self.logger = logger
    }

    /// Templates that failed to compile: empty unless a template edit broke one.
    package static var brokenTemplates: [String] { ConsoleTemplates.broken }

    /// The names of the templates compiled into the binary, for the test that every file in
    /// `Resources` is one of them.
    package static var templateNames: [String] { ConsoleTemplates.sources.keys.sorted() }

    /// The message page in `language` with `text` as its heading: for the template tests.
    package static func renderMessage(heading: String, language: String) -> String {
        ConsoleTemplates.render(
            "message", ["heading": heading, "text": ConsoleText.words(language)["notFound"] ?? "", "t": ConsoleText.words(language)])
    }

    /// Whether both languages have every word.
    package static var missingWords: [String] {
        Set(ConsoleText.english.keys).symmetricDifference(ConsoleText.japanese.keys).sorted()
    }

    /// The account use case the user pages act through, for `visit`'s admin.
    func users(_ visit: ConsoleVisit) -> AccountAdministration { AccountAdministration(accounts: accounts, origin: visit.origin) }

    /// Answers one console request; never throws: a refusal or failure is a page, and a
    /// failure is logged (`failurePage`).
    package func respond(to request: Request, remoteIP: String?) async -> Response {
        let forwardedFor = ParseResponder.forwardedFor.flatMap { request.headers[$0] }
        let ip = ParseResponder.clientIP(socket: remoteIP, forwardedFor: forwardedFor, trusted: trustedProxies)
        var visit = ConsoleVisit(request: request, base: config.path, language: Self.language(request), secure: isSecure(request, remoteIP))
        visit.outbox = status.outbox != nil
        visit.ip = ip
        var response: Response
        if !config.allowedAddresses.isEmpty && !(ip.map { AddressRange.any(config.allowedAddresses, contains: $0) } ?? false) {
            response = visit.message(.forbidden, "refusedAddress", status: .forbidden)
        } else {
            do {
                response = try await answer(&visit)
            } catch {
                response = failurePage(error, visit)
            }
        }
        if let language = visit.setLanguage {
            response.headers.append(HTTPField(name: .setCookie, value: visit.cookie("rooftop_console_lang", language, maxAge: 31_536_000)))
        }
        Self.addSecurityHeaders(&response.headers)
        return response
    }

    /// The one place a console failure becomes a page: an HTTP refusal (a form too large) is its
    /// status; anything else is a 500 that says nothing of its cause, which goes to the log.
    func failurePage(_ error: any Error, _ visit: ConsoleVisit) -> Response {
        let path = visit.request.uri.path
        if let refusal = error as? HTTPError {
            logger.debug("console refused a request", metadata: ["path": "\(path)", "status": "\(refusal.status.code)"])
            return visit.message(refusal.status, "notFound", status: refusal.status)
        }
        logger.error(
            "console page failed",
            metadata: ["path": "\(path)", "method": "\(visit.request.method)", "admin": "\(visit.admin?.name ?? "-")", "error": "\(error)"])
        return visit.message(.internalServerError, "notFound", status: .internalServerError, heading: "Error")
    }

    /// TLS ends at the server only behind a proxy here: HTTPS when the public URL says so, or a
    /// trusted proxy's `X-Forwarded-Proto` does.
    func isSecure(_ request: Request, _ remoteIP: String?) -> Bool {
        if publicURL?.lowercased().hasPrefix("https://") == true { return true }
        guard let remoteIP, AddressRange.any(trustedProxies, contains: remoteIP), let name = HTTPField.Name("X-Forwarded-Proto") else { return false }
        return request.headers[name]?.lowercased() == "https"
    }

    /// The console's pipeline, in order: the language switch, the method, the POST's origin and
    /// form, the route, the session, the CSRF token and the role the route needs, the handler.
    private func answer(_ visit: inout ConsoleVisit) async throws -> Response {
        let path = visit.request.uri.path.dropFirst(config.path.count).split(separator: "/").map(String.init)
        let method = visit.request.method
        if method == .get, let lang = visit.query["lang"], ConsoleText.languages.contains(lang) {
            visit.language = lang
            visit.setLanguage = lang
        }
        guard method == .get || method == .post else { return visit.message(.notFound, "notFound", status: .methodNotAllowed) }
        if method == .post {
            // Before anything is read or checked: a form another site made the browser send is
            // refused whatever it carries (login CSRF by a tossed cookie included).
            guard Self.isSameOrigin(visit.request) else { return visit.message(.forbidden, "crossOrigin", status: .forbidden) }
            visit.form = try await Self.readForm(visit.request)
        }
        let matched = Self.route(method, path)
        // An unknown URL asks as much as any page would: a visitor without a session learns
        // nothing of which URLs exist.
        let access = matched?.0.access ?? (method == .post ? .owner : .signedIn)
        if access != .anyone {
            guard let token = visit.cookie(named: "rooftop_console"), let (name, session) = try await sessions.resume(token),
                let admin = try await admins.admin(name)
            else {
                if method == .post { return visit.message(.forbidden, "badToken", status: .forbidden) }
                return Self.redirect(visit.base + "/login")
            }
            visit.admin = (name, admin.role, session.csrf)
            if method == .post {
                guard ConsoleSessions.csrfMatches(visit.form["csrf"], session.csrf) else {
                    return visit.message(.forbidden, "badToken", status: .forbidden)
                }
            }
            // Every POST, and the few owner-only pages (a confirmation that leads to a change).
            guard access != .owner || admin.role == .owner else { return visit.message(.forbidden, "forbidden", status: .forbidden) }
        }
        guard let (route, parameters) = matched else { return visit.message(.notFound, "notFound", status: .notFound) }
        return try await route.handler(self, &visit, parameters)
    }

    /// Whether a POST came from the console's own pages, as the browser tells: `Sec-Fetch-Site`
    /// must be `same-origin` (a sibling subdomain or another port on the same host is
    /// `same-site`, and refused); without it, an `Origin` must name this host (`null` is
    /// refused). A request with neither (a script, a browser from before 2023) is left to the
    /// CSRF tokens.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = HTTPField.Name("Sec-Fetch-Site").flatMap({ request.headers[$0] }) { return site.lowercased() == "same-origin" }
        guard let origin = request.headers[.origin] else { return true }
        guard let url = URLComponents(string: origin), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty, let authority = request.head.authority?.lowercased()
        else { return false }
        return authority == (url.port.map { "\(host):\($0)" } ?? host)
    }

    /// The console's pages carry the server's page headers; the referrer goes to the console
    /// itself only, so its own form posts carry an `Origin` (see `isSameOrigin`).
    static func addSecurityHeaders(_ headers: inout HTTPFields) { PageHeaders.add(to: &headers, referrer: .sameOrigin) }

    /// The values of the `confirmDelete` template: the section's heading, where the form
    /// posts, and the name the owner must type to delete, with its label and hint (words
    /// already in the page's language). A page shows the form when its values hold these.
    static func deleteForm(heading: String, action: String, label: String, hint: String, name: String) -> [String: Any] {
        ["heading": heading, "action": action, "label": label, "hint": hint, "name": name]
    }

    static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    /// The URL-encoded form of a POST, at most 64 KiB.
    static func readForm(_ request: Request) async throws -> [String: String] {
        if let declared = request.headers[.contentLength], (Int(declared) ?? .max) > 65_536 { throw HTTPError(.contentTooLarge) }
        let buffer = try await request.body.collect(upTo: 65_536)
        return parseForm(String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    /// `application/x-www-form-urlencoded` as plain strings, as the hosted pages read it: never
    /// an object or an operator; the first value of a name wins, at most `maxFormPairs` pairs.
    package static func parseForm(_ text: String) -> [String: String] { URLEncodedForm.parse(text, maxPairs: maxFormPairs) }

    /// The most pairs a console form is read with: enough for an object of every field a class
    /// may have, or an ACL of hundreds of entries, within the 64 KiB body (the hosted pages,
    /// open to anyone, read 50).
    package static let maxFormPairs = 600

    /// The language chosen by the switch's cookie, else by `Accept-Language` (English by default).
    static func language(_ request: Request) -> String {
        let cookies = ConsoleVisit.parseCookies(request.headers[.cookie])
        // Either scheme's name (see `ConsoleVisit.cookie`): a language is no secret.
        let chosen = cookies["__Host-rooftop_console_lang"] ?? cookies["rooftop_console_lang"]
        return languages.choose(userLocale: chosen, acceptLanguage: request.headers[.acceptLanguage])
    }

    /// The console's languages, English unless the visitor prefers another.
    static let languages = LanguageChooser(available: Set(ConsoleText.languages), fallback: "en")
}
