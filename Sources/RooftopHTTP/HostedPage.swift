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

    /// The HTML response, from `templates`, linking the style sheet at `stylesheet`: the page's
    /// content (`Resources/pages/content.mustache`) inside the layout.
    func response(_ templates: PageTemplates, stylesheet: String) -> Response {
        let text = templates.text(kind, language: language)
        // The words are the operator's HTML; only the values placed in them are escaped.
        let escaped = values.mapValues(TextTemplate.escapeHTML).merging(["appName": TextTemplate.escapeHTML(appName)]) { $1 }
        var content: [String: Any] = ["message": TextTemplate.fill(text.message, escaped)]
        if let form, let button = text.button { content["form"] = formValues(form, button: button, field: text.field) }
        if reveal != nil { content["script"] = Self.asset("rooftop.js", besides: stylesheet) }
        let html = templates.render(
            lang: language, title: text.title, appName: appName, stylesheet: stylesheet, content: PageMarkup.library.render("content", content),
            assets: Self.asset("", besides: stylesheet))
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        Self.addSecurityHeaders(&headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The form's values: its hidden fields in name order, and the address field (the reset
    /// request) or the new-password field (every other form with a field).
    private func formValues(_ form: (action: String, fields: [String: String]), button: String, field: String?) -> [String: Any] {
        var values: [String: Any] = [
            "action": form.action, "button": button,
            "fields": form.fields.sorted(by: { $0.key < $1.key }).map { ["name": $0.key, "value": $0.value] },
        ]
        if let field, kind == .requestReset {
            values["email"] = ["label": field]
        } else if let field {
            values["password"] = passwordField(label: field)
        }
        return values
    }

    /// The new-password field's values: its label, the rules before anything is submitted, the
    /// error after, the show-password toggle, and the account's name for password managers.
    private func passwordField(label: String) -> [String: Any] {
        var values: [String: Any] = ["label": label]
        if let accountName { values["accountName"] = accountName }
        if let rules { values["rules"] = rules }
        if let fieldError { values["error"] = fieldError }
        if let reveal { values["reveal"] = ["show": reveal.show, "hide": reveal.hide] }
        let described = [rules == nil ? nil : "password_rules", fieldError == nil ? nil : "password_error"].compactMap { $0 }
        if !described.isEmpty { values["describedBy"] = described.joined(separator: " ") }
        return values
    }

    /// The address of the asset `name` next to the style sheet at `stylesheet`.
    static func asset(_ name: String, besides stylesheet: String) -> String { String(stylesheet.dropLast("rooftop.css".count)) + name }

    /// The headers every hosted page and its style sheet carry; no referrer, as a page's
    /// address may hold a one-time token.
    static func addSecurityHeaders(_ headers: inout HTTPFields) { PageHeaders.add(to: &headers, referrer: .none) }
}
