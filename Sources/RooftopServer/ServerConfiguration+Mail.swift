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
