import Foundation
import Logging
import RooftopCore
import RooftopHTTP
package import RooftopMail
import RooftopServices

/// The `mail` option: how messages leave the server.
package struct MailSettings: Sendable {
    package var transport = "outbox"
    package var from: String?
    package var host: String?
    package var port: Int?
    package var security = SMTPClient.Security.starttls
    package var username: String?
    package var password: String?
    package var timeout = 30
    package var caFile: String?
    package var templatesDir: String?
    package var defaultLocale = "en"

    static let keys = ["transport", "from", "host", "port", "security", "username", "password", "timeout", "caFile", "templatesDir", "defaultLocale"]

    /// Reads `{"transport":"smtp","host":…}` (an object, or its JSON text from the environment).
    mutating func apply(_ value: ConfigValue) throws {
        for (key, json) in try value.object() {
            let item = value.member(key, json)
            func positive() throws -> Int {
                let n = try item.int()
                try item.require(n > 0, "must be a positive integer")
                return n
            }
            switch key {
            case "transport":
                transport = try item.string()
                try item.require(["outbox", "smtp"].contains(transport), "must be outbox or smtp")
            case "from": from = try item.string()
            case "host": host = try item.string()
            case "port": port = try positive()
            case "security":
                let parsed = SMTPClient.Security(rawValue: try item.string())
                try item.require(parsed != nil, "must be none, starttls or tls")
                security = parsed ?? security
            case "username": username = try item.string()
            case "password": password = try item.string()
            case "timeout": timeout = try positive()
            case "caFile": caFile = try item.string()
            case "templatesDir": templatesDir = try item.string()
            case "defaultLocale": defaultLocale = try item.string().lowercased()
            default: throw value.unknownMember(key, known: Self.keys)
            }
        }
        if transport == "smtp" && host == nil { throw value.member("host", .null).error("is required with the smtp transport") }
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
        return "http://\(shownHost):\(port)\(httpSettings.mountPath)"
    }

    /// The account mail, or nil when no link can be built; throws when verification is asked for
    /// without a usable `publicServerURL`, or with broken templates.
    /// Password reset works whenever a link base exists (always in development); without one,
    /// `/requestPasswordReset` answers 1 as Parse does.
    func accountMail(appId: String, pages: PageTemplates = .builtIn, logger: Logger) throws -> AccountMail? {
        guard let url = effectivePublicServerURL else {
            if accounts.verifyUserEmails { throw ConfigError("verifyUserEmails needs publicServerURL (the https URL clients and emailed links use)") }
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
            locale: LanguageChooser(available: templates.languages.union(pages.languages), fallback: mail.defaultLocale),
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
