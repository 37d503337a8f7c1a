import HTTPTypes
import Metrics

/// What the API did, through swift-metrics: requests by route and status, their latency, and the
/// account events an operator watches (sign-ups, logins, failed logins, rate-limit refusals).
/// Routes are their table patterns (`/classes/:className`), never raw paths, so the number of
/// series stays bounded whatever clients send. Off (the default) costs nothing per request.
package struct RequestMetrics: Sendable {
    /// Whether anything is recorded.
    package var enabled: Bool

    /// Metrics on or off.
    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Records one answered request.
    func record(method: HTTPRequest.Method, route: String, status: Int, duration: Duration) {
        guard enabled else { return }
        let code = String(status)
        Counter(label: "rooftop_http_requests_total", dimensions: [("method", method.rawValue), ("route", route), ("status", code)])
            .increment()
        Timer(label: "rooftop_http_request_duration_seconds", dimensions: [("route", route)]).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        if status == 429 { Counter(label: "rooftop_rate_limit_refusals_total", dimensions: [("route", route)]).increment() }
        switch (method, route) {
        case (.post, "/users") where status == 201:
            Counter(label: "rooftop_signups_total").increment()
        case (.post, "/login"), (.get, "/login"), (.post, "/loginAs"):
            Counter(label: status == 200 ? "rooftop_logins_total" : "rooftop_login_failures_total").increment()
        default:
            break
        }
    }
}
