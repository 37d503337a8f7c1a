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
    var status: HTTPResponse.Status = .ok

    /// `Content-Security-Policy`: no script at all, styles only from our own sheet, forms only to
    /// ourselves, never framed.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

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
                // Paste and password managers welcome (no autocomplete=off): ASVS V6.2.7.
                content += "<label for=\"new_password\">\(TextTemplate.escapeHTML(field))</label>"
                content += "<input type=\"password\" id=\"new_password\" name=\"new_password\" autocomplete=\"new-password\" required"
                content += fieldError == nil ? ">" : " aria-invalid=\"true\" aria-describedby=\"password_error\">"
                if let fieldError { content += "<p class=\"error\" id=\"password_error\" role=\"alert\">\(TextTemplate.escapeHTML(fieldError))</p>" }
            }
            content += "<button type=\"submit\">\(TextTemplate.escapeHTML(button))</button></form>"
        }
        let html = Self.fill(
            templates.layout,
            [
                "lang": language, "title": TextTemplate.escapeHTML(text.title), "appName": escaped["appName"] ?? "",
                "stylesheet": TextTemplate.escapeHTML(stylesheet), "content": content,
                "assets": TextTemplate.escapeHTML(String(stylesheet.dropLast("rooftop.css".count))),
            ])
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        Self.addSecurityHeaders(&headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The headers every hosted page and its style sheet carry.
    static func addSecurityHeaders(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        for (name, value) in [("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY")] {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
    }

    /// One pass, so a value that looks like `{{content}}` stays text.
    static func fill(_ template: String, _ values: [String: String]) -> String { TextTemplate.fill(template, values) }
}
