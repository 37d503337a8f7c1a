import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// A hosted page's request: the HTTP request, the route's path parameters and the form it posted.
struct PageRequest: Sendable {
    var request: Request
    var segments: [String]
    var pathParameters: [String: String]
    /// The URL-encoded form body (read by the dispatcher within the route's limit).
    var form: [String: String] = [:]

    /// The query string's parameters.
    var query: [String: String] { URLEncodedForm.parse(request.uri.query ?? "") }
}

/// The pages an emailed link opens, under `<mount>/apps/`: email verification (and, with its
/// flow, password reset). Links carry only `token`; a `username` parameter from Parse 7 links
/// is accepted and ignored.
struct HostedPages: Sendable {
    let accounts: Accounts
    let appId: String
    let templates: PageTemplates
    /// The request the pages serve (the browser's address and user agent).
    let origin: RequestOrigin
    /// The server's address including the mount path (`publicServerURL`, else from the
    /// request): the browser sign-in's callback is under it.
    var serverURL: String = ""

    /// The email verification the link's pages act through.
    var emailVerification: EmailVerification { EmailVerification(accounts: accounts, origin: origin) }

    /// The password reset the reset pages act through.
    var passwordReset: PasswordReset { PasswordReset(accounts: accounts, origin: origin) }

    /// The browser sign-in use case the `/auth` pages act through.
    var signIn: BrowserSignIn { BrowserSignIn(accounts: accounts, origin: origin) }

    func stylesheet() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/css; charset=utf-8"
        HostedPage.addSecurityHeaders(&headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: templates.stylesheet)))
    }

    func asset(_ page: PageRequest) -> Response {
        guard let asset = templates.assets[page.pathParameters["asset"] ?? ""] else { return notFound(page) }
        var headers = HTTPFields()
        headers[.contentType] = asset.type
        HostedPage.addSecurityHeaders(&headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    /// Any other path under `apps/`, and links for another app or a server without mail.
    func notFound(_ page: PageRequest) -> Response {
        self.page(.notFound, page, status: .notFound).response(templates, stylesheet: stylesheet(page.segments))
    }

    func verifyEmail(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        let token = page.query["token"] ?? ""
        switch try await emailVerification.verifyEmail(token: token) {
        case .verified(let username):
            var result = self.page(.emailVerified, page)
            result.values["username"] = username
            return result.response(templates, stylesheet: stylesheet(page.segments))
        case .expired:
            var result = self.page(.verificationLinkExpired, page)
            result.form = ("resend_verification_email", ["token": token])
            return result.response(templates, stylesheet: stylesheet(page.segments))
        case .invalid:
            return self.page(.verificationLinkInvalid, page, status: .badRequest).response(templates, stylesheet: stylesheet(page.segments))
        }
    }

    func resendVerification(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        let sent = try await emailVerification.resendVerification(
            token: page.form["token"] ?? "", acceptLanguage: page.request.headers[.acceptLanguage])
        return sent
            ? self.page(.verificationLinkSent, page).response(templates, stylesheet: stylesheet(page.segments))
            : self.page(.verificationLinkInvalid, page, status: .badRequest).response(templates, stylesheet: stylesheet(page.segments))
    }

    func resetForm(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        // Showing the form never consumes the token: a mail scanner's GET changes nothing.
        let token = page.query["token"] ?? ""
        guard let username = try await passwordReset.passwordResetUsername(token: token) else {
            return self.page(.resetLinkInvalid, page, status: .badRequest).response(templates, stylesheet: stylesheet(page.segments))
        }
        return passwordForm(page, token: token, username: username, status: .ok).response(templates, stylesheet: stylesheet(page.segments))
    }

    func resetPassword(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        let token = page.form["token"] ?? ""
        let outcome = try await passwordReset.resetPassword(token: token, newPassword: page.form["new_password"] ?? "")
        if let xhr = HTTPField.Name("X-Requested-With"), page.request.headers[xhr] == "XMLHttpRequest" { return Self.xhrAnswer(outcome) }
        switch outcome {
        case .changed:
            return self.page(.passwordChanged, page).response(templates, stylesheet: stylesheet(page.segments))
        case .rejected(let problem):
            var form = passwordForm(
                page, token: token, username: try await passwordReset.passwordResetUsername(token: token) ?? "", status: .badRequest)
            form.fieldError = templates.describe(problem, language: language(page))
            return form.response(templates, stylesheet: stylesheet(page.segments))
        case .invalid:
            return self.page(.resetLinkInvalid, page, status: .badRequest).response(templates, stylesheet: stylesheet(page.segments))
        }
    }

    /// The choose-a-password form for the account `username`, with the rules the policy will
    /// apply and the show-password toggle, in the visitor's language.
    private func passwordForm(_ page: PageRequest, token: String, username: String, status: HTTPResponse.Status) -> HostedPage {
        var form = self.page(.choosePassword, page, status: status)
        form.values["username"] = username
        form.form = ("request_password_reset", ["token": token])
        let language = language(page)
        form.rules = templates.phrase("passwordRules", language: language, ["minimum": String(accounts.config.passwordPolicy.minLength)])
        form.reveal = (templates.phrase("passwordShow", language: language), templates.phrase("passwordHide", language: language))
        form.accountName = username.isEmpty ? nil : username
        return form
    }

    /// A script the pages load (`rooftop.js`, the show-password toggle; `rooftop-passkeys.js`, the
    /// passkey page's); nothing inline, for the policy.
    func script(_ text: String = PageMarkup.script) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/javascript; charset=utf-8"
        HostedPage.addSecurityHeaders(&headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The form the security notices link to: a person asks for a reset link by address.
    func forgotPasswordForm(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        var form = self.page(.requestReset, page)
        form.form = ("forgot_password", [:])
        return form.response(templates, stylesheet: stylesheet(page.segments))
    }

    /// The same "check your inbox" page whatever the address (known, unknown, malformed): the
    /// lookup and the mail run after the answer, through `/requestPasswordReset`'s use case.
    func forgotPassword(_ page: PageRequest) async throws -> Response {
        guard isOurs(page) else { return notFound(page) }
        let email = page.form["email"] ?? ""
        guard !email.isEmpty else { return try await forgotPasswordForm(page) }
        let acceptLanguage = page.request.headers[.acceptLanguage]
        _ = try? await passwordReset.requestPasswordReset(body: ["email": .string(email)], acceptLanguage: acceptLanguage, alwaysInBackground: true)
        return self.page(.resetRequested, page).response(templates, stylesheet: stylesheet(page.segments))
    }

    /// The hosted page of a failed browser sign-in, in the visitor's language.
    func signInFailed(_ page: PageRequest, _ error: ParseError, status: HTTPResponse.Status = .badRequest) -> Response {
        var result = self.page(.signInFailed, page, status: status)
        result.values["code"] = String(error.code.rawValue)
        return result.response(templates, stylesheet: stylesheet(page.segments))
    }

    /// A page post refused by a rate limit: the page in the visitor's language, with how long to
    /// wait, instead of the API's JSON (an `XMLHttpRequest` post still gets the JSON).
    func tooManyRequests(_ page: PageRequest, retryAfter seconds: Int) -> Response? {
        if let xhr = HTTPField.Name("X-Requested-With"), page.request.headers[xhr] == "XMLHttpRequest" { return nil }
        var result = self.page(.tooManyRequests, page, status: .tooManyRequests)
        let minutes = max(1, (seconds + 59) / 60)
        result.values["minutes"] =
            language(page) == "ja" ? "\(minutes)分" : (minutes == 1 ? "a minute" : "\(minutes) minutes")
        var response = result.response(templates, stylesheet: stylesheet(page.segments))
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// A link for this app, on a server that sends mail.
    private func isOurs(_ page: PageRequest) -> Bool {
        accounts.sendsMail && page.pathParameters["appId"] == appId
    }

    func language(_ page: PageRequest) -> String {
        accounts.pageLanguage(acceptLanguage: page.request.headers[.acceptLanguage])
    }

    func page(_ kind: HostedPage.Kind, _ page: PageRequest, status: HTTPResponse.Status = .ok) -> HostedPage {
        HostedPage(kind: kind, language: language(page), appName: accounts.appName, status: status)
    }

    /// Parse's XHR mode for apps that post the form themselves: text on success, a Parse error
    /// (-1 with the reason) otherwise.
    static func xhrAnswer(_ outcome: PasswordReset.ResetOutcome) -> Response {
        switch outcome {
        case .changed:
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "Password successfully reset")))
        case .rejected(let problem):
            return ErrorRenderer.response(ParseError(.otherCause, problem.error.message))
        case .invalid:
            return ErrorRenderer.response(
                ParseError(.otherCause, "Failed to reset password: the link is invalid or has expired."))
        }
    }

    /// The style sheet's URL relative to the page, so no Host header ever builds a link.
    func stylesheet(_ segments: [String]) -> String {
        String(repeating: "../", count: max(0, segments.count - 2)) + "rooftop.css"
    }
}
