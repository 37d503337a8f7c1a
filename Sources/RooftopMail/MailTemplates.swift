import Foundation
import RooftopCore

/// The messages Rooftop sends, in English and Japanese, each a subject, a text body and an
/// HTML body with `{{name}}` placeholders.
///
/// An operator overrides any of them, or adds a language, with files in a templates directory:
/// `<dir>/<lang>/<kind>.txt` (first line `Subject: …`, a blank line, then the text) and
/// optionally `<dir>/<lang>/<kind>.html`. Values are HTML-escaped in HTML bodies and stripped of
/// line breaks in subjects.
package struct MailTemplates: Sendable {
    /// What a message is for; the raw value names its template files.
    package enum Kind: String, Sendable, CaseIterable {
        /// The link that verifies an email address.
        case verifyEmail = "verify_email"
        /// The link to choose a new password.
        case passwordReset = "password_reset"
        /// Security notice: the password was changed.
        case passwordChanged = "password_changed"
        /// Security notice to the previous address: the account's email was changed.
        case emailChanged = "email_changed"
        /// Security notice to the new address: it became an account's email.
        case emailAdded = "email_added"
        /// Security notice: a device this account never signed in from did.
        case newDevice = "new_device"
        /// Security notice: a sign-in method (an `authData` provider) was linked.
        case providerLinked = "provider_linked"
        /// Security notice: a sign-in method was unlinked.
        case providerUnlinked = "provider_unlinked"
        /// Security notice: a second factor was enabled.
        case secondFactorEnabled = "second_factor_enabled"
        /// Security notice: the second factor was removed.
        case secondFactorRemoved = "second_factor_removed"
        /// Security notice: a recovery code was used in place of a second-factor code.
        case recoveryCodeUsed = "recovery_code_used"
        /// Security notice: a passkey was added.
        case passkeyAdded = "passkey_added"
        /// Security notice: a passkey was removed.
        case passkeyRemoved = "passkey_removed"
    }

    /// One template.
    package struct Template: Sendable, Equatable {
        /// The subject line.
        package var subject: String
        /// The plain-text body.
        package var text: String
        /// The HTML body, if any.
        package var html: String?

        /// Creates a template.
        package init(subject: String, text: String, html: String?) {
            self.subject = subject
            self.text = text
            self.html = html
        }
    }

    var templates: [String: [Kind: Template]]

    /// Languages with at least one template.
    package var languages: Set<String> { Set(templates.keys) }

    /// Only the built-in templates (which cannot fail to load).
    package static var builtIn: MailTemplates { MailTemplates(templates: BuiltInTemplates.all) }

    init(templates: [String: [Kind: Template]]) { self.templates = templates }

    /// The built-in templates, overridden by files under `directory` when given.
    package init(directory: String? = nil) throws {
        templates = BuiltInTemplates.all
        guard let directory else { return }
        let languages = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for language in languages where (2...8).contains(language.count) && language.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
            for kind in Kind.allCases {
                let base = "\(directory)/\(language)/\(kind.rawValue)"
                guard let text = try? String(contentsOfFile: base + ".txt", encoding: .utf8) else { continue }
                guard let (subject, body) = Self.split(text) else {
                    throw MailError(temporary: false, "\(base).txt must start with a `Subject: …` line and a blank line")
                }
                let html = try? String(contentsOfFile: base + ".html", encoding: .utf8)
                templates[language, default: [:]][kind] = Template(subject: subject, text: body, html: html)
            }
        }
    }

    /// The message of `kind` in `language` (English when that language lacks it), filled in.
    package func render(_ kind: Kind, language: String, values: [String: String]) -> Template {
        let template = templates[language]?[kind] ?? templates["en"]?[kind] ?? Template(subject: kind.rawValue, text: "{{link}}", html: nil)
        return Template(
            subject: TextTemplate.fill(template.subject, values.mapValues(MailMessage.clean)),
            text: TextTemplate.fill(template.text, values),
            html: template.html.map { TextTemplate.fill($0, values.mapValues(TextTemplate.escapeHTML)) })
    }

    /// The `expires` placeholder: how long a link lives, in `language` ("" when it never expires).
    package static func expiryPhrase(seconds: Int?, language: String) -> String {
        guard let seconds, seconds > 0 else { return "" }
        let (amount, unitEN, unitJA) =
            seconds % 3600 == 0 ? (seconds / 3600, "hour", "時間") : seconds % 60 == 0 ? (seconds / 60, "minute", "分") : (seconds, "second", "秒")
        if language == "ja" { return "（\(amount)\(unitJA)以内）" }
        return " within \(amount) \(unitEN)\(amount == 1 ? "" : "s")"
    }

    static func split(_ text: String) -> (String, String)? {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard normalized.hasPrefix("Subject:"), let blank = normalized.range(of: "\n\n") else { return nil }
        let subject = normalized[normalized.index(normalized.startIndex, offsetBy: 8)..<blank.lowerBound]
        return (subject.trimmingCharacters(in: .whitespaces), String(normalized[blank.upperBound...]))
    }
}
