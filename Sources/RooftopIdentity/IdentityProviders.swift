package import RooftopServices

/// Builds the configured sign-in providers: the composition root's one call into this target.
package enum IdentityProviders {
    /// One provider per settings entry, measuring token lifetimes and key caching on `clock`.
    package static func make(_ settings: [ProviderSettings], clock: any ServerClock) -> [any AuthProvider] {
        settings.map { entry -> any AuthProvider in
            switch entry.kind {
            case .apple: OIDCProvider.apple(entry, clock: clock)
            case .google: OIDCProvider.google(entry, clock: clock)
            case .oidc: OIDCProvider.generic(entry, clock: clock)
            case .facebook: FacebookProvider(entry)
            case .github: GitHubProvider(entry)
            }
        }
    }
}
