import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// The browser sign-in's two browser-facing steps (`docs/providers.md`): `start` sends the
/// browser to the provider, `callback` sends it back to the app with a single-use code (or an
/// error). What can't be sent back to an allowed app address is a hosted page, in English or
/// Japanese. Every answer is `no-store`, framed by nobody, and carries no referrer.
extension HostedPages {
    /// `GET /auth/:provider/start?redirect_uri=…&code_challenge=…[&state=…][&link_code=…]`;
    /// `link=<session token>` (the old way to link) is refused.
    func startSignIn(_ page: PageRequest) async throws -> Response {
        let provider = page.pathParameters["provider"] ?? ""
        let query = page.query
        do {
            let url = try await signIn.startBrowserSignIn(
                provider: provider, callback: "\(serverURL)/auth/\(provider)/callback", redirectURI: query["redirect_uri"],
                codeChallenge: query["code_challenge"], appState: query["state"], linkCode: query["link_code"],
                sessionInURL: query["link"] != nil)
            return Self.redirect(url)
        } catch let error as ParseError {
            return signInFailed(page, error)
        }
    }

    /// `GET /auth/:provider/callback?state=…&code=…` (or `error=…`), from the provider.
    func finishSignIn(_ page: PageRequest) async throws -> Response {
        switch try await signIn.finishBrowserSignIn(provider: page.pathParameters["provider"] ?? "", query: page.query) {
        case .redirect(let url): return Self.redirect(url)
        case .failed(let error): return signInFailed(page, error)
        }
    }

    /// `POST /auth/:provider/callback` with a form (`state`, `code`, and on the first sign-in
    /// `user`): Apple's `response_mode=form_post`, the only way it returns when it is asked for
    /// name and email. A cross-site POST by design: the single-use `state` (and the app's PKCE
    /// at `/auth/token`) is what protects it, not the request's origin; see security.md.
    func finishSignInPost(_ page: PageRequest) async throws -> Response {
        switch try await signIn.finishBrowserSignIn(provider: page.pathParameters["provider"] ?? "", query: page.form, formPost: true) {
        case .redirect(let url): return Self.redirect(url)
        case .failed(let error): return signInFailed(page, error)
        }
    }

    /// A `302` to `url` with the hosted pages' headers (`no-store`, no referrer, no framing).
    static func redirect(_ url: String) -> Response {
        var headers = HTTPFields()
        HostedPage.addSecurityHeaders(&headers)
        headers[.location] = url
        return Response(status: .found, headers: headers)
    }
}

/// `POST /auth/token`: the app's code and PKCE verifier for a session; `POST
/// /auth/:provider/link`: a link start code for the signed-in user.
extension ParseRoutes {
    func issueLinkCode(_ request: ParseRequest) async throws -> ParseResponse {
        guard let token = request.sessionToken else { throw ParseError(.invalidSessionToken, "Invalid session token") }
        let provider = request.pathParameters["provider"] ?? ""
        return ParseResponse(
            body: .object(
                try await BrowserSignIn(accounts: accounts, origin: request.origin).issueLinkCode(
                    provider: provider, sessionToken: token, body: request.body)))
    }

    func redeemSignInCode(_ request: ParseRequest) async throws -> ParseResponse {
        ParseResponse(
            body: .object(
                try await BrowserSignIn(accounts: accounts, origin: request.origin).redeemBrowserCode(
                    body: request.body, installationId: request.installationId)))
    }
}
