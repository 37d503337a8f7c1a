import Logging
import Synchronization

/// Behind a reverse proxy that is not in `trustProxy`, every client shares the proxy's address,
/// so the per-address limits (10 sign-ups a minute by default) throttle the whole app. The
/// first request that shows it — `X-Forwarded-For` from an untrusted address — is logged once,
/// with the setting that fixes it.
final class UntrustedProxyWarning: Sendable {
    private let warned = Atomic<Bool>(false)

    /// Logs the warning if this is the first request with `X-Forwarded-For` from `socket`, an
    /// address outside `trusted`; afterwards costs one atomic load.
    func check(socket: String?, forwardedFor: String?, trusted: [String], logger: Logger) {
        guard forwardedFor != nil, !warned.load(ordering: .relaxed), let socket, !AddressRange.any(trusted, contains: socket) else {
            return
        }
        guard warned.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        logger.warning(
            """
            requests carry X-Forwarded-For from \(socket), which is not a trusted proxy: every client behind it shares that \
            one address for rate limits, lockouts and the audit log; if it is your reverse proxy, list it in trustProxy \
            (ROOFTOP_TRUST_PROXY)
            """)
    }
}
