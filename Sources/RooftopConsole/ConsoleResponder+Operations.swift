import Foundation
import HTTPTypes
import Hummingbird
import RooftopCore
import RooftopServices

/// The operations pages: the audit log (filtered, paged by the `createdAt` index) and the
/// server's status.
extension ConsoleResponder {
    static let auditPageSize = 50

    func auditPage(_ visit: inout ConsoleVisit) async throws -> Response {
        let query = visit.query
        var conditions: [QueryNode] = []
        var filter: [String: String] = [:]
        if let user = query["user"], !user.isEmpty, ObjectId.isPlausible(user) {
            conditions.append(.field(FieldPath(field: try FieldName("userId")), .equals(.string(user))))
            filter["user"] = user
        }
        let event = query["event"].flatMap(AuditLog.Event.init(rawValue:))
        if let event { conditions.append(.field(FieldPath(field: try FieldName("type")), .equals(.string(event.rawValue)))) }
        if let ip = query["ip"], !ip.isEmpty, ip.utf8.count <= 64, !ip.contains("\u{0}") {
            conditions.append(.field(FieldPath(field: try FieldName("ip")), .equals(.string(ip))))
            filter["ip"] = ip
        }
        for (key, comparison) in [("since", Comparison.gte), ("until", .lt)] {
            guard let text = query[key], let date = Self.localTime(text) else { continue }
            conditions.append(.field(FieldPath(field: .createdAt), .compare(comparison, ["__type": "Date", "iso": .string(date.iso)])))
            filter[key] = text
        }
        if let after = query["after"] {
            let parts = after.split(separator: "~", maxSplits: 1).map(String.init)
            if parts.count == 2, let at = ParseDate(iso: parts[0]), ObjectId.isPlausible(parts[1]) {
                conditions.append(AuditLog.after(createdAt: at, objectId: parts[1]))
            }
        }
        let events = try await accounts.audit.find(.and(conditions), limit: Self.auditPageSize + 1)
        var values: [String: Any] = [
            "filter": filter, "events": events.prefix(Self.auditPageSize).map(Self.event), "hasEvents": !events.isEmpty,
            "eventTypes": AuditLog.Event.allCases.map { ["name": $0.rawValue, "selected": $0 == event] as [String: Any] },
        ]
        if events.count > Self.auditPageSize, let last = events.prefix(Self.auditPageSize).last {
            var next = filter
            if let event { next["event"] = event.rawValue }
            next["after"] = last.createdAt.iso + "~" + last.objectId
            values["older"] = visit.base + "/audit?" + Self.encodeQuery(next)
        }
        return visit.page("audit", title: visit.word("audit"), values: values, section: "audit")
    }

    func statusPage(_ visit: inout ConsoleVisit) async -> Response {
        let seconds = max(0, (clock.now().millisecondsSince1970 - status.startedAt.millisecondsSince1970) / 1000)
        let uptime = "\(seconds / 86_400)d \(seconds % 86_400 / 3600)h \(seconds % 3600 / 60)m \(seconds % 60)s"
        let mail = await status.mailQueue().map(String.init) ?? visit.word("notConfigured")
        var values: [String: Any] = ["version": RooftopVersion.current, "database": status.database, "mailQueue": mail, "uptime": uptime]
        if let rates = await rateValues(visit) { values["metrics"] = rates } else { values["metricsOff"] = true }
        return visit.page("opsStatus", title: visit.word("status"), values: values, section: "status")
    }

    /// A `datetime-local` value (`2026-11-26T05:30`, read as UTC) or a full ISO time.
    static func localTime(_ text: String) -> ParseDate? {
        guard !text.isEmpty, text.utf8.count <= 40 else { return nil }
        if let date = ParseDate(iso: text) { return date }
        if text.count == 16 { return ParseDate(iso: text + ":00.000Z") }
        if text.count == 19 { return ParseDate(iso: text + ".000Z") }
        return nil
    }

    static func encodeQuery(_ values: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._")
        return values.sorted { $0.key < $1.key }.map { key, value in
            key + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}
