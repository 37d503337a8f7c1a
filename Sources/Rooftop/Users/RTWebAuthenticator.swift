public import Foundation

/// Shows the provider's sign-in page in a browser and hands back where the browser was sent
/// afterwards: the browser part of `RTUser.logIn(withProvider:authenticator:)`.
///
/// ``RTLoopbackAuthenticator`` (command-line apps on Linux and macOS: the system browser and a
/// listener on 127.0.0.1) and, on Apple platforms, `RTSystemWebAuthenticator`
/// (`ASWebAuthenticationSession`) are the two the SDK brings; a test can bring its own.
public protocol RTWebAuthenticator: Sendable {
    /// Where the server sends the browser back to the app: it must be on the server's
    /// `authRedirectURIs`.
    func redirectURI() async throws -> URL
    /// Opens `url` in a browser and returns the URL the browser was sent to at `redirectURI()`
    /// (it carries `code` and `state`, or `error`).
    func authenticate(_ url: URL) async throws -> URL
}
