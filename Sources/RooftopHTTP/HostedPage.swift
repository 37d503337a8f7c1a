import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore

/// One hosted page (email verification, password reset), rendered in the visitor's language with
/// every value HTML-escaped and headers that keep it out of frames, caches and referrers.
struct HostedPage {
    /// Which page.
    enum Kind: String, Sendable, CaseIterable {
        case emailVerified, verificationLinkInvalid, verificationLinkExpired, verificationLinkSent, notFound
        case choosePassword, passwordChanged, resetLinkInvalid, tooManyRequests
        case signInFailed
        /// The form where a person asks for a reset link by email address (linked from the
        /// security notices: no secret in the link).
        case requestReset, resetRequested
    }

    var kind: Kind
    var language: String
    var appName: String
    var values: [String: String] = [:]
    /// A form posting `fields` (hidden) to `action`, with the page's button.
    var form: (action: String, fields: [String: String])? = nil
    /// An error shown under the form's password field.
    var fieldError: String? = nil
    /// The password rules, shown under the field before anything is submitted.
    var rules: String? = nil
    /// The show-password toggle's two labels; the button appears only when script runs.
    var reveal: (show: String, hide: String)? = nil
    /// The account's name in a hidden `username` field, so a password manager files the new
    /// password under the right account.
    var accountName: String? = nil
    var status: HTTPResponse.Status = .ok

    /// The HTML response, from `templates`, linking the style sheet at `stylesheet`.
    func response(_ templates: PageTemplates, stylesheet: String) -> Response {
        let text = templates.text(kind, language: language)
        let escaped = values.mapValues(TextTemplate.escapeHTML).merging(["appName": TextTemplate.escapeHTML(appName)]) { $1 }
        var content = "<p>" + Self.fill(text.message, escaped) + "</p>"
        if let form, let button = text.button {
            content += "<form method=\"post\" action=\"\(TextTemplate.escapeHTML(form.action))\">"
            for (name, value) in form.fields.sorted(by: { $0.key < $1.key }) {
                content += "<input type=\"hidden\" name=\"\(TextTemplate.escapeHTML(name))\" value=\"\(TextTemplate.escapeHTML(value))\">"
            }
            if let field = text.field, kind == .requestReset {
                content += "<label for=\"email\">\(TextTemplate.escapeHTML(field))</label>"
                content += "<input type=\"email\" id=\"email\" name=\"email\" autocomplete=\"email\" maxlength=\"254\" required>"
            } else if let field = text.field {
                content += passwordField(label: field)
            }
            content += "<button type=\"submit\">\(TextTemplate.escapeHTML(button))</button></form>"
        }
        if reveal != nil { content += "<script src=\"\(TextTemplate.escapeHTML(Self.asset("rooftop.js", besides: stylesheet)))\" defer></script>" }
        let html = Self.fill(
            templates.layout,
            [
                "lang": language, "title": TextTemplate.escapeHTML(text.title), "appName": escaped["appName"] ?? "",
                "stylesheet": TextTemplate.escapeHTML(stylesheet), "content": content,
                "assets": TextTemplate.escapeHTML(Self.asset("", besides: stylesheet)),
            ])
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        Self.addSecurityHeaders(&headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The new-password field: its label, the rules before anything is submitted, the error
    /// after, the show-password toggle, and the account's name for password managers.
    private func passwordField(label: String) -> String {
        var html = ""
        if let accountName {
            html += "<input type=\"text\" name=\"username\" autocomplete=\"username\" value=\"\(TextTemplate.escapeHTML(accountName))\" hidden>"
        }
        // Paste and password managers welcome (no autocomplete=off): ASVS V6.2.7.
        html += "<label for=\"new_password\">\(TextTemplate.escapeHTML(label))</label>"
        html += "<input type=\"password\" id=\"new_password\" name=\"new_password\" autocomplete=\"new-password\" required"
        let described = [rules == nil ? nil : "password_rules", fieldError == nil ? nil : "password_error"].compactMap { $0 }
        if !described.isEmpty { html += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        html += fieldError == nil ? ">" : " aria-invalid=\"true\">"
        if let reveal {
            html += "<button type=\"button\" class=\"reveal\" aria-controls=\"new_password\" aria-pressed=\"false\" hidden "
            html += "data-show=\"\(TextTemplate.escapeHTML(reveal.show))\" data-hide=\"\(TextTemplate.escapeHTML(reveal.hide))\">"
            html += "\(TextTemplate.escapeHTML(reveal.show))</button>"
        }
        if let fieldError { html += "<p class=\"error\" id=\"password_error\" role=\"alert\">\(TextTemplate.escapeHTML(fieldError))</p>" }
        if let rules { html += "<p class=\"hint\" id=\"password_rules\">\(TextTemplate.escapeHTML(rules))</p>" }
        return html
    }

    /// The address of the asset `name` next to the style sheet at `stylesheet`.
    static func asset(_ name: String, besides stylesheet: String) -> String { String(stylesheet.dropLast("rooftop.css".count)) + name }

    /// The headers every hosted page and its style sheet carry; no referrer, as a page's
    /// address may hold a one-time token.
    static func addSecurityHeaders(_ headers: inout HTTPFields) { PageHeaders.add(to: &headers, referrer: .none) }

    /// One pass, so a value that looks like `{{content}}` stays text.
    static func fill(_ template: String, _ values: [String: String]) -> String { TextTemplate.fill(template, values) }
}
