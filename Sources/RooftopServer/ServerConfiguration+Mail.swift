import Foundation
import Logging
import RooftopCore
import RooftopHTTP
import RooftopMail
import RooftopServices

/// The `mail` option: how messages leave the server.
struct MailSettings: Sendable {
    var transport = "outbox"
    var from: String?
    var host: String?
    var port: Int?
    var security = SMTPClient.Security.starttls
    var username: String?
    var password: String?
    var timeout = 30
    var caFile: String?
    var templatesDir: String?
    var defaultLocale = "en"

    static let keys = ["transport", "from", "host", "port", "security", "username", "password", "timeout", "caFile", "templatesDir", "defaultLocale"]

    /// Reads `{"transport":"smtp","host":…}` (an object, or its JSON text from the environment).
    mutating func apply(_ value: JSON, source: String) throws {
        guard let object = ServerConfiguration.nestedObject(value) else { throw ConfigError("\(source): mail must be an object") }
        for (key, item) in object {
            func string() throws -> String {
                guard let text = item.stringValue else { throw ConfigError("\(source): mail.\(key) must be a string") }
                return text
            }
            func int() throws -> Int {
                guard let n = ServerConfiguration.integer(item), n > 0 else { throw ConfigError("\(source): mail.\(key) must be a positive integer") }
                return n
            }
            switch key {
            case "transport":
                transport = try string()
                guard ["outbox", "smtp"].contains(transport) else { throw ConfigError("\(source): mail.transport must be outbox or smtp") }
            case "from": from = try string()
            case "host": host = try string()
            case "port": port = try int()
            case "security":
                guard let value = SMTPClient.Security(rawValue: try string()) else {
                    throw ConfigError("\(source): mail.security must be none, starttls or tls")
                }
                security = value
            case "username": username = try string()
            case "password": password = try string()
            case "timeout": timeout = try int()
            case "caFile": caFile = try string()
            case "templatesDir": templatesDir = try string()
            case "defaultLocale": defaultLocale = try string().lowercased()
            default: throw ConfigError("\(source): unknown key mail.\(key)")
            }
        }
        if transport == "smtp" && host == nil { throw ConfigError("\(source): mail.host is required with the smtp transport") }
    }

    /// The redacted form for `config print`.
    var redacted: JSON {
        var out: [String: JSON] = [
            "transport": .string(transport), "security": .string(security.rawValue), "timeout": .number(Double(timeout)),
            "defaultLocale": .string(defaultLocale),
        ]
        for (key, value) in [("from", from), ("host", host), ("username", username), ("caFile", caFile), ("templatesDir", templatesDir)] {
            if let value { out[key] = .string(value) }
        }
        if let port { out["port"] = .number(Double(port)) }
        if password != nil { out["password"] = "<redacted>" }
        return .object(out)
    }
}

extension ServerConfiguration {
    /// The link base: `publicServerURL`, else (development only) this server's own address.
    var effectivePublicServerURL: String? {
        if let publicServerURL { return publicServerURL }
        guard profile == "development" else { return nil }
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shownHost):\(port)\(mountPath)"
    }

    /// The account mail, or nil when no link can be built; throws when verification is asked for
    /// without a usable `publicServerURL`, or with broken templates.
    /// Password reset works whenever a link base exists (always in development); without one,
    /// `/requestPasswordReset` answers 1 as Parse does.
    func accountMail(appId: String, pages: PageTemplates = .builtIn, logger: Logger) throws -> AccountMail? {
        guard let url = effectivePublicServerURL else {
            if verifyUserEmails { throw ConfigError("verifyUserEmails needs publicServerURL (the https URL clients and emailed links use)") }
            return nil
        }
        guard let scheme = URLComponents(string: url)?.scheme, ["http", "https"].contains(scheme) else {
            throw ConfigError("publicServerURL must be an http or https URL")
        }
        let transport: any MailTransport =
            mail.transport == "smtp"
            ? SMTPClient(
                configuration: .init(
                    host: mail.host ?? "localhost", port: mail.port ?? (mail.security == .tls ? 465 : 587), security: mail.security,
                    username: mail.username, password: mail.password, timeout: mail.timeout, caFile: mail.caFile))
            : FileOutbox(directory: dataDir + "/outbox")
        let templates: MailTemplates
        do {
            templates = try MailTemplates(directory: mail.templatesDir)
        } catch {
            throw ConfigError("mail.templatesDir: \(error)")
        }
        let name = appName ?? appId
        return AccountMail(
            queue: MailQueue(transport: transport, logger: logger), templates: templates,
            locale: MailLocale(available: templates.languages.union(pages.languages), fallback: mail.defaultLocale),
            from: mail.from ?? "\(name) <no-reply@localhost>",
            appName: name, publicServerURL: url, appId: appId)
    }

    /// The hosted pages from `mail.templatesDir` (built in when unset); throws on a file the
    /// pages cannot use.
    func pageTemplates() throws -> PageTemplates {
        do {
            return try PageTemplates(directory: mail.templatesDir)
        } catch {
            throw ConfigError("mail.templatesDir: \(error)")
        }
    }
}
