import Foundation
package import RooftopCore

/// Request rates from the metrics registry's counters: samples of the request and error totals
/// taken on the server clock (every 10 s by the sampler, and at each status page view), kept
/// for six minutes; a rate is the counters' change from the oldest sample inside the window.
package actor RequestRates {
    /// One reading of the counters.
    struct Sample {
        var at: Int64
        var requests: Double
        var errors: Double
    }

    /// Samples in the order they were taken (so a tie in time keeps the earlier reading first).
    private var samples: [Sample] = []
    /// How long samples are kept: the longest window plus a sampling period.
    static let keep: Int64 = 360_000

    /// An empty ring.
    package init() {}

    /// Records the counters in `scrape` (Prometheus text) read at `at`.
    package func record(_ scrape: MetricsReading, at: ParseDate) {
        let now = at.millisecondsSince1970
        let sample = Sample(at: now, requests: scrape.requests, errors: scrape.errors)
        // Page views closer than 5 s replace the newest sample instead of adding one, so a page
        // reloaded in a loop cannot push out the samples the five-minute rate starts from.
        if let last = samples.last, samples.count > 1, now - last.at < 5_000 {
            samples[samples.count - 1] = sample
        } else {
            samples.append(sample)
        }
        samples.removeAll { $0.at < now - Self.keep }
        if samples.count > 200 { samples.removeFirst(samples.count - 200) }
    }

    /// Requests and errors (4xx and 5xx) per second over the last `window` milliseconds
    /// before `now`; nil until a sample at least three quarters of the window old is there.
    package func rate(window: Int64, now: ParseDate, current: MetricsReading) -> (requests: Double, errors: Double)? {
        let end = now.millisecondsSince1970
        guard let start = samples.first(where: { $0.at >= end - window && $0.at < end }), end - start.at >= window * 3 / 4 else {
            return nil
        }
        let seconds = Double(end - start.at) / 1000
        return (max(0, current.requests - start.requests) / seconds, max(0, current.errors - start.errors) / seconds)
    }
}

/// What the console reads from one scrape of the registry: the request total, the error total
/// (statuses 4xx and 5xx) and the database pool's gauges.
package struct MetricsReading: Sendable, Equatable {
    /// `rooftop_http_requests_total`, summed over every route and status.
    package var requests: Double = 0
    /// The same, over statuses 400 to 599.
    package var errors: Double = 0
    /// `rooftop_db_connections` by state (`capacity`, `in_use`, `waiting`).
    package var pool: [String: Double] = [:]

    /// Reads Prometheus's text format; lines it does not know are skipped.
    package init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            if series.hasPrefix("rooftop_http_requests_total{") || series == "rooftop_http_requests_total" {
                requests += value
                if let status = Self.label("status", in: series), status.count == 3, status.hasPrefix("4") || status.hasPrefix("5") {
                    errors += value
                }
            } else if series.hasPrefix("rooftop_db_connections{"), let state = Self.label("state", in: series) {
                pool[String(state)] = value
            }
        }
    }

    static func label(_ name: String, in series: Substring) -> Substring? {
        guard let start = series.range(of: name + "=\"") else { return nil }
        let rest = series[start.upperBound...]
        return rest.firstIndex(of: "\"").map { rest[..<$0] }
    }
}
