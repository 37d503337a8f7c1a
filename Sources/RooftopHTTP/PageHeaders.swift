package import HTTPTypes

/// The one set of security headers every HTML page of this server carries, the hosted pages'
/// and the console's alike: scripts, styles and images from this server only (never inline),
/// forms only to itself, never framed, never cached, nothing sniffed.
package enum PageHeaders {
    /// `Content-Security-Policy` of every page.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// What a page's links and forms tell other sites about it.
    package enum Referrer: String, Sendable {
        /// Nothing: the hosted pages' addresses carry one-time tokens.
        case none = "no-referrer"
        /// Only the server itself hears it, so the console's own form posts carry an `Origin`
        /// its same-origin check can read.
        case sameOrigin = "same-origin"
    }

    /// Sets the headers on `headers`.
    package static func add(to headers: inout HTTPFields, referrer: Referrer) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        for (name, value) in [("Referrer-Policy", referrer.rawValue), ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin")] {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
    }
}
