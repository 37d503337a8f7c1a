import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import RooftopMail
import RooftopStorage

/// Prometheus metrics on a port of their own (`metricsPort`), so the API's port never exposes
/// them: swift-metrics is bootstrapped with a Prometheus registry, and `GET /metrics` renders
/// it, with the mail queue's counters and the database pool's use read at each scrape.
enum MetricsEndpoint {
    /// Bootstraps swift-metrics (once per process) and builds the endpoint's application.
    static func application(
        host: String, port: Int, mail: MailQueue?, pool: @escaping @Sendable () -> PoolStatistics?, logger: Logger
    ) -> some ApplicationProtocol {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let states = ["pending", "sent", "failed", "retried"]
        let mailDescriptor = MetricNameDescriptor(
            namespace: "rooftop", metricName: "mail", unitName: "messages", helpText: "Mail messages since the start, by state.")
        let mailGauges = Dictionary(
            uniqueKeysWithValues: states.map { ($0, registry.makeGauge(descriptor: mailDescriptor, labels: [("state", $0)])) })
        let poolDescriptor = MetricNameDescriptor(
            namespace: "rooftop", metricName: "db_connections", unitName: nil,
            helpText: "Database connections: the pool's capacity, calls holding one and calls waiting for one.")
        let poolGauges = Dictionary(
            uniqueKeysWithValues: ["capacity", "in_use", "waiting"].map {
                ($0, registry.makeGauge(descriptor: poolDescriptor, labels: [("state", $0)]))
            })
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            if let mail {
                let counters = await mail.currentCounters()
                let values = ["pending": counters.pending, "sent": counters.sent, "failed": counters.failed, "retried": counters.retried]
                for (state, gauge) in mailGauges { gauge.set(Double(values[state] ?? 0)) }
            }
            if let statistics = pool() {
                poolGauges["capacity"]?.set(Double(statistics.capacity))
                poolGauges["in_use"]?.set(Double(statistics.inUse))
                poolGauges["waiting"]?.set(Double(statistics.waiting))
            }
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        var quiet = logger
        quiet.logLevel = .warning
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil), logger: quiet)
    }
}
