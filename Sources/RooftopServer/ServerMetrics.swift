import Metrics
import Prometheus
package import RooftopMail
package import RooftopStorage

/// The process's one Prometheus registry: swift-metrics is bootstrapped with it once, the
/// metrics port renders it, and the console's status page reads its request counters from the
/// same text, so both always agree (no second counter).
package final class ServerMetrics: Sendable {
    /// The registry of this process; the first use bootstraps swift-metrics (which can happen
    /// only once per process).
    package static let shared = ServerMetrics()

    let registry: PrometheusCollectorRegistry
    let mailGauges: [String: Prometheus.Gauge]
    let poolGauges: [String: Prometheus.Gauge]

    private init() {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let mailDescriptor = MetricNameDescriptor(
            namespace: "rooftop", metricName: "mail", unitName: "messages", helpText: "Mail messages since the start, by state.")
        mailGauges = Dictionary(
            uniqueKeysWithValues: ["pending", "sent", "failed", "retried"].map {
                ($0, registry.makeGauge(descriptor: mailDescriptor, labels: [("state", $0)]))
            })
        let poolDescriptor = MetricNameDescriptor(
            namespace: "rooftop", metricName: "db", unitName: "connections",
            helpText: "Database connections: the pool's capacity, calls holding one and calls waiting for one.")
        poolGauges = Dictionary(
            uniqueKeysWithValues: ["capacity", "in_use", "waiting"].map {
                ($0, registry.makeGauge(descriptor: poolDescriptor, labels: [("state", $0)]))
            })
        self.registry = registry
    }

    /// The registry in Prometheus's text format, with the mail queue's counters and the
    /// database pool's use read now.
    package func scrape(mail: MailQueue?, pool: PoolStatistics?) async -> [UInt8] {
        if let mail {
            let counters = await mail.currentCounters()
            let values = ["pending": counters.pending, "sent": counters.sent, "failed": counters.failed, "retried": counters.retried]
            for (state, gauge) in mailGauges { gauge.set(Double(values[state] ?? 0)) }
        }
        if let pool {
            poolGauges["capacity"]?.set(Double(pool.capacity))
            poolGauges["in_use"]?.set(Double(pool.inUse))
            poolGauges["waiting"]?.set(Double(pool.waiting))
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
