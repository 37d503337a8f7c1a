import Hummingbird
import Logging
import NIOCore
import RooftopMail
import RooftopStorage

/// Prometheus metrics on a port of their own (`metricsPort`), so the API's port never exposes
/// them: `GET /metrics` renders the process's registry (`ServerMetrics`), with the mail queue's
/// counters and the database pool's use read at each scrape.
enum MetricsEndpoint {
    /// The endpoint's application over `metrics`.
    static func application(
        host: String, port: Int, metrics: ServerMetrics, mail: MailQueue?, pool: @escaping @Sendable () -> PoolStatistics?, logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            let buffer = await metrics.scrape(mail: mail, pool: pool())
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
