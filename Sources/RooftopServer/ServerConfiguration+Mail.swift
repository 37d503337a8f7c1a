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
}

extension ServerConfiguration {
    /// `mail`'s members.
    static let mailMembers: [ConfigKey] = [
        .string(
            "mail.transport", \.mail.transport, "`outbox` (files in `<dataDir>/outbox`) or `smtp`",
            valid: { ["outbox", "smtp"].contains($0) }, problem: "must be outbox or smtp"),
        .optionalString("mail.from", \.mail.from, "the sender (`Notes <hi@example.com>`)"),
        .optionalString("mail.host", \.mail.host, "the SMTP server; required with the smtp transport"),
        ConfigKey(
            "mail.port", .integer, "the SMTP port (587, or 465 with `tls`)", defaultNote: "587, or 465 with `tls`",
            apply: { configuration, value in
                let port = try value.int()
                try value.require(port > 0, "must be a positive integer")
                configuration.mail.port = port
            }, show: { $0.mail.port.map { .number(Double($0)) } ?? .null }),
        ConfigKey(
            "mail.security", .string, "`starttls`, `tls` or `none`",
            apply: { configuration, value in
                let parsed = SMTPClient.Security(rawValue: try value.string())
                try value.require(parsed != nil, "must be none, starttls or tls")
                configuration.mail.security = parsed ?? configuration.mail.security
            }, show: { .string($0.mail.security.rawValue) }),
        .optionalString("mail.username", \.mail.username, "the SMTP user"),
        .optionalString("mail.password", \.mail.password, "the SMTP password", secret: true),
        .int("mail.timeout", \.mail.timeout, "seconds an SMTP exchange may take", valid: { $0 > 0 }, problem: "must be a positive integer"),
        .optionalString("mail.caFile", \.mail.caFile, "a PEM file of CA certificates trusted for the SMTP server besides the system's"),
        .optionalString(
            "mail.templatesDir", \.mail.templatesDir, "your own mail templates and hosted pages (see [email.md](email.md))",
            defaultNote: "unset: the built-in ones"),
        ConfigKey(
            "mail.defaultLocale", .string, "the language of mail and pages when the user's is unknown",
            apply: { configuration, value in configuration.mail.defaultLocale = try value.string().lowercased() },
            show: { .string($0.mail.defaultLocale) }),
    ]

    /// The smtp transport needs a host to send to.
    static func checkMail(_ configuration: inout ServerConfiguration, _ value: ConfigValue) throws {
        if configuration.mail.transport == "smtp" && configuration.mail.host == nil {
            throw value.member("host", .null).error("is required with the smtp transport")
        }
    }

    /// The link base: `publicServerURL`, else (development only) this server's own address.
    var effectivePublicServerURL: String? {
        if let publicServerURL { return publicServerURL }
        guard profile == "development" else { return nil }
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(shownHost):\(port)\(httpSettings.mountPath)"
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
