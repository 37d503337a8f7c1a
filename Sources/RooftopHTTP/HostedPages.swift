import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopMail
import RooftopServices
import RooftopStorage

/// The pages an emailed link opens, under `<mount>/apps/`: email verification (and, with its
/// flow, password reset). Links carry only `token`; a `username` parameter from Parse 7 links
/// is accepted and ignored.
struct HostedPages {
    let accounts: Accounts
    let appId: String
    let templates: PageTemplates

    /// Answers `request`, whose path below the mount path is `segments` (`apps/…`).
    func respond(_ request: Request, segments: [String]) async throws -> Response {
        if segments == ["apps", "rooftop.css"] {
            var headers = HTTPFields()
            headers[.contentType] = "text/css; charset=utf-8"
            HostedPage.addSecurityHeaders(&headers)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: templates.stylesheet)))
        }
        if segments.count == 2, request.method == .get, let asset = templates.assets[segments[1]] {
            var headers = HTTPFields()
            headers[.contentType] = asset.type
            HostedPage.addSecurityHeaders(&headers)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
        }
        let language = (accounts.mailSettings?.locale ?? .init()).choose(userLocale: nil, acceptLanguage: request.headers[.acceptLanguage])
        let appName = accounts.mailSettings?.appName ?? ""
        func page(_ kind: HostedPage.Kind, status: HTTPResponse.Status = .ok) -> HostedPage {
            HostedPage(kind: kind, language: language, appName: appName, status: status)
        }
        guard accounts.mailSettings != nil, segments.count == 3, segments[1] == appId else {
            return page(.notFound, status: .notFound).response(templates, stylesheet: stylesheet(segments))
        }
        let query = Self.form(request.uri.query ?? "")
        switch (request.method, segments[2]) {
        case (.get, "verify_email"):
            let token = query["token"] ?? ""
            switch try await accounts.verifyEmail(token: token) {
            case .verified(let username):
                var result = page(.emailVerified)
                result.values["username"] = username
                return result.response(templates, stylesheet: stylesheet(segments))
            case .expired:
                var result = page(.verificationLinkExpired)
                result.form = ("resend_verification_email", ["token": token])
                return result.response(templates, stylesheet: stylesheet(segments))
            case .invalid:
                return page(.verificationLinkInvalid, status: .badRequest).response(templates, stylesheet: stylesheet(segments))
            }
        case (.post, "resend_verification_email"):
            let form = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            let sent = try await accounts.resendVerification(token: form["token"] ?? "", acceptLanguage: request.headers[.acceptLanguage])
            return sent
                ? page(.verificationLinkSent).response(templates, stylesheet: stylesheet(segments))
                : page(.verificationLinkInvalid, status: .badRequest).response(templates, stylesheet: stylesheet(segments))
        case (.get, "request_password_reset"):
            // Showing the form never consumes the token: a mail scanner's GET changes nothing.
            let token = query["token"] ?? ""
            guard let user = try await accounts.passwordResetUser(token: token) else {
                return page(.resetLinkInvalid, status: .badRequest).response(templates, stylesheet: stylesheet(segments))
            }
            var form = page(.choosePassword)
            form.values["username"] = user.fields["username"]?.stringValue ?? ""
            form.form = ("request_password_reset", ["token": token])
            return form.response(templates, stylesheet: stylesheet(segments))
        case (.post, "request_password_reset"):
            let fields = Self.form(String(buffer: try await request.body.collect(upTo: 16_384)))
            let token = fields["token"] ?? ""
            let outcome = try await accounts.resetPassword(token: token, newPassword: fields["new_password"] ?? "")
            if let xhr = HTTPField.Name("X-Requested-With"), request.headers[xhr] == "XMLHttpRequest" { return Self.xhrAnswer(outcome) }
            switch outcome {
            case .changed:
                return page(.passwordChanged).response(templates, stylesheet: stylesheet(segments))
            case .rejected(let problem):
                var form = page(.choosePassword, status: .badRequest)
                form.values["username"] = (try await accounts.passwordResetUser(token: token))?.fields["username"]?.stringValue ?? ""
                form.form = ("request_password_reset", ["token": token])
                form.fieldError = templates.describe(problem, language: language)
                return form.response(templates, stylesheet: stylesheet(segments))
            case .invalid:
                return page(.resetLinkInvalid, status: .badRequest).response(templates, stylesheet: stylesheet(segments))
            }
        default:
            return page(.notFound, status: .notFound).response(templates, stylesheet: stylesheet(segments))
        }
    }

    /// Parse's XHR mode for apps that post the form themselves: text on success, a Parse error
    /// (-1 with the reason) otherwise.
    static func xhrAnswer(_ outcome: Accounts.ResetOutcome) -> Response {
        switch outcome {
        case .changed:
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "Password successfully reset")))
        case .rejected(let problem):
            return ParseResponder.json(ParseError(.otherCause, problem.error.message).body, status: .badRequest)
        case .invalid:
            return ParseResponder.json(
                ParseError(.otherCause, "Failed to reset password: the link is invalid or has expired.").body, status: .badRequest)
        }
    }

    /// The style sheet's URL relative to the page, so no Host header ever builds a link.
    func stylesheet(_ segments: [String]) -> String {
        String(repeating: "../", count: max(0, segments.count - 2)) + "rooftop.css"
    }

    /// `application/x-www-form-urlencoded` (and query strings) as plain strings: no JSON
    /// interpretation, so a parameter is never an object or an operator; the first value wins.
    static func form(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&").prefix(50) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = parts.first.flatMap(decode), result[name] == nil else { continue }
            result[name] = parts.count == 2 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }
}
