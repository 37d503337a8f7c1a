package import RooftopServices

/// Builds the configured sign-in providers: the composition root's one call into this target.
package enum IdentityProviders {
    /// One provider per settings entry, measuring token lifetimes and key caching on `clock`,
    /// calling providers with `http`.
    package static func make(_ settings: [ProviderSettings], clock: any ServerClock, http: ProviderHTTP) -> [any AuthProvider] {
        settings.map { entry -> any AuthProvider in
            switch entry.kind {
            case .apple: OIDCProvider.apple(entry, clock: clock, http: http)
            case .google: OIDCProvider.google(entry, clock: clock, http: http)
            case .oidc: OIDCProvider.generic(entry, clock: clock, http: http)
            case .facebook: FacebookProvider(entry, http: http)
            case .github: GitHubProvider(entry, http: http)
            }
        }
    }
}
