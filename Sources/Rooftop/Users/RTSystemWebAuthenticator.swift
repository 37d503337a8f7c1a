#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    public import AuthenticationServices
    public import Foundation

    /// The browser sign-in on Apple platforms: `ASWebAuthenticationSession` shows the provider's
    /// page and returns when the server redirects to the app's custom scheme. The server's
    /// `authRedirectURIs` must hold `redirect` exactly (e.g. `com.example.app:/oauth`).
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    public final class RTSystemWebAuthenticator: NSObject, RTWebAuthenticator, ASWebAuthenticationPresentationContextProviding,
        @unchecked Sendable
    {
        /// Where the server sends the browser back to (a custom scheme of the app).
        public let redirect: URL
        /// Whether the session shares no cookies with Safari (no "sign in as …" from earlier).
        public let ephemeral: Bool
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// An authenticator returning to `redirect`, presenting over `anchor()` (the key window).
        public init(redirect: URL, ephemeral: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.redirect = redirect
            self.ephemeral = ephemeral
            self.anchor = anchor
        }

        /// `redirect`.
        public func redirectURI() async throws -> URL { redirect }

        /// Runs an `ASWebAuthenticationSession` on the main actor; a cancel is error 1 (`RTError.otherCause`).
        public func authenticate(_ url: URL) async throws -> URL {
            let scheme = redirect.scheme
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                Task { @MainActor in
                    let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { callback, error in
                        if let callback {
                            continuation.resume(returning: callback)
                        } else {
                            continuation.resume(throwing: RTError(.otherCause, error?.localizedDescription ?? "The sign-in was cancelled."))
                        }
                    }
                    session.presentationContextProvider = self
                    session.prefersEphemeralWebBrowserSession = ephemeral
                    if !session.start() { continuation.resume(throwing: RTError(.otherCause, "The sign-in could not start.")) }
                }
            }
        }

        /// The window the session presents over.
        public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }
    }
#endif
