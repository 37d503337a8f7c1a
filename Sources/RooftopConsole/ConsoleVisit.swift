import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// One request to the console as its pages see it: who asks, in which language, and how to
/// answer with a page.
struct ConsoleVisit {
    var request: Request
    /// The console's path (links are built from it, never from the `Host` header).
    var base: String
    var language: String
    /// Whether the request came over HTTPS (cookies are then `Secure`).
    var secure: Bool
    /// A language the switch just chose, to remember in a cookie.
    var setLanguage: String?
    /// The POSTed form.
    var form: [String: String] = [:]
    /// The signed-in admin: name, role and the session's CSRF token.
    var admin: (name: String, role: ConsoleRole, csrf: String)?
    /// The client's address (behind trusted proxies, the forwarded one).
    var ip: String?
    /// Whether the nav shows the mail outbox (mail is written to files).
    var outbox = false

    init(request: Request, base: String, language: String, secure: Bool) {
        self.request = request
        self.base = base
        self.language = language
        self.secure = secure
    }

    var query: [String: String] { ConsoleResponder.parseForm(request.uri.query ?? "") }
    var cookies: [String: String] { Self.parseCookies(request.headers[.cookie]) }
    var words: [String: String] { ConsoleText.words(language) }
    func word(_ key: String) -> String { words[key] ?? key }

    /// Where the visit came from, with the signed-in admin's name: what the use cases record.
    var origin: RequestOrigin { RequestOrigin(clientIP: ip, userAgent: request.headers[.userAgent], admin: admin?.name) }

    /// A cookie, `HttpOnly` and `SameSite=Strict`. Over HTTPS it is `__Host-<name>`, `Secure`,
    /// for the whole origin (the prefix requires `Path=/`): a browser then refuses the name from
    /// a sibling subdomain or from plain HTTP, so no other site can toss it in. Over plain HTTP
    /// it is `<name>`, scoped to the console's path.
    func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> String {
        var text = "\(cookieName(name))=\(value); Path=\(secure ? "/" : base); HttpOnly; SameSite=Strict"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if secure { text += "; Secure" }
        return text
    }

    /// The name a console cookie has on this request's scheme (see `cookie`).
    func cookieName(_ name: String) -> String { secure ? "__Host-" + name : name }

    /// A console cookie the request carries; over HTTPS only its `__Host-` form counts.
    func cookie(named name: String) -> String? { cookies[cookieName(name)] }

    static func parseCookies(_ header: String?) -> [String: String] {
        var result: [String: String] = [:]
        for part in (header ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            if result[name] == nil { result[name] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return result
    }

    /// A full page: `template` rendered with `values`, inside the layout.
    func page(
        _ template: String, title: String, values: [String: Any], status: HTTPResponse.Status = .ok, notice: String? = nil, error: String? = nil,
        section: String? = nil
    ) -> Response {
        var values = values
        values["t"] = words
        values["base"] = base
        let content = ConsoleTemplates.render(template, values)
        var layout: [String: Any] = [
            "lang": language, "title": title, "t": words, "base": base, "content": content,
            "otherLang": language == "ja" ? "en" : "ja", "otherLangName": language == "ja" ? "English" : "日本語",
        ]
        if let notice { layout["notice"] = notice }
        if let error { layout["error"] = error }
        if let admin {
            layout["signedIn"] = true
            layout["adminName"] = admin.name
            layout["roleLabel"] = word(admin.role == .owner ? "owner" : "readOnly")
            layout["csrf"] = admin.csrf
            layout["nav"] = (ConsoleVisit.sections + (outbox ? [("outbox", "opsOutbox")] : [])).map { path, key -> [String: Any] in
                ["href": base + "/" + path, "label": word(key), "current": section == path]
            }
        }
        let html = ConsoleTemplates.render("layout", layout)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The navigation's sections: path under the console and word key.
    static let sections = [("users", "users"), ("data", "data"), ("roles", "roles"), ("audit", "audit"), ("status", "status")]

    /// A page with a heading and one sentence (refusals, errors).
    func message(_ kind: HTTPResponse.Status, _ key: String, status: HTTPResponse.Status, heading: String? = nil) -> Response {
        page(
            "message", title: heading ?? "\(kind.code)", values: ["heading": heading ?? "\(kind.code) \(kind.reasonPhrase)", "text": word(key)],
            status: status)
    }
}
