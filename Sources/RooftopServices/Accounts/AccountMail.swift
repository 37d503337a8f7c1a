import Foundation
package import RooftopCore
package import RooftopMail
import RooftopStorage

/// The mail the account use cases send: where links point, who sends, in which language.
///
/// Links are built only from the configured `publicServerURL`, never from a request's `Host` or
/// `X-Forwarded-*` headers, so a forged header cannot point a reset link at an attacker.
package struct AccountMail: Sendable {
    /// Whether `token` could be a link token of ours: only our own alphabet and a sane length
    /// ever reach a query.
    static func isLinkTokenShaped(_ token: String) -> Bool {
        (16...128).contains(token.utf8.count) && token.utf8.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || ($0 >= 48 && $0 <= 57) }
    }

    /// Background delivery.
    package let queue: MailQueue
    /// Subjects and bodies.
    package let templates: MailTemplates
    /// Language choice.
    package let locale: LanguageChooser
    /// `From` of every message.
    package let from: String
    /// Shown in messages and pages (Parse: `appName`).
    package let appName: String
    /// The server's public URL including the mount path, without a trailing slash.
    package let publicServerURL: String
    /// The application id, part of every link path.
    package let appId: String

    /// Creates the mail settings.
    package init(
        queue: MailQueue, templates: MailTemplates, locale: LanguageChooser, from: String, appName: String, publicServerURL: String, appId: String
    ) {
        self.queue = queue
        self.templates = templates
        self.locale = locale
        self.from = from
        self.appName = appName
        self.publicServerURL = publicServerURL.hasSuffix("/") ? String(publicServerURL.dropLast()) : publicServerURL
        self.appId = appId
    }

    /// `<publicServerURL>/apps/<appId>/<page>?token=<token>`.
    package func link(_ page: String, token: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let id = appId.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "\(publicServerURL)/apps/\(id)/\(page)?token=\(token.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }

    /// `<publicServerURL>/apps/<appId>/<page>`: a hosted page that needs no token.
    package func page(_ page: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return "\(publicServerURL)/apps/\(appId.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")/\(page)"
    }

    /// Queues a message of `kind` to `user`'s email (or `address`), in the user's language.
    func send(
        _ kind: MailTemplates.Kind, to user: StoredObject, address: String? = nil, link: String, expiresIn: Int?, acceptLanguage: String?
    ) async {
        guard let email = address ?? user.fields["email"]?.stringValue else { return }
        let language = locale.choose(userLocale: user.fields["locale"]?.stringValue, acceptLanguage: acceptLanguage)
        let values = [
            "appName": appName, "link": link, "email": email, "username": user.fields["username"]?.stringValue ?? "",
            "expires": MailTemplates.expiryPhrase(seconds: expiresIn, language: language),
        ]
        let message = templates.render(kind, language: language, values: values)
        await queue.send(
            MailMessage(
                from: from, to: email, subject: message.subject, text: message.text, html: message.html, headers: [("X-Rooftop-Kind", kind.rawValue)])
        )
    }
}
