import ArgumentParser
import Foundation
import Logging
import RooftopCore
import RooftopServices
import RooftopStorage

/// `rooftop audit`: the authentication audit log, newest first (reads the database directly;
/// safe while the server runs).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Show authentication events, newest first.")
    @OptionGroup var location: ExistingDatabaseOptions
    @Option(help: "Only this user's events (objectId).") var user: String?
    @Option(help: "Only this event type, e.g. login.failed (types: \(AuditLog.Event.allCases.map(\.rawValue).joined(separator: ", "))).")
    var type: String?
    @Option(help: "Only events at or after this time (ISO 8601, e.g. 2026-11-22T00:00:00Z).") var since: String?
    @Option(help: "Only events before this time (ISO 8601).") var until: String?
    @Option(help: "At most this many events.") var limit = 100

    func run() async throws {
        var conditions: [QueryNode] = []
        if let user { conditions.append(.field(FieldPath(field: try FieldName("userId")), .equals(.string(user)))) }
        if let type {
            guard AuditLog.Event(rawValue: type) != nil else { throw ValidationError("unknown event type \(type)") }
            conditions.append(.field(FieldPath(field: try FieldName("type")), .equals(.string(type))))
        }
        for (text, op) in [(since, Comparison.gte), (until, .lt)] {
            guard let text else { continue }
            guard let date = ParseDate(iso: text) ?? ParseDate(iso: text.replacingOccurrences(of: "Z", with: ".000Z")) else {
                throw ValidationError("\(text) is not an ISO 8601 time")
            }
            conditions.append(.field(FieldPath(field: .createdAt), .compare(op, ["__type": "Date", "iso": .string(date.iso)])))
        }
        let database = try location.open(label: "audit")
        let log = AuditLog(store: database.store, clock: FixedClock(millisecondsSince1970: 0), logger: Logger(label: "audit"))
        let events = try await database.using { _ in try await log.find(.and(conditions), limit: max(1, min(limit, 10_000))) }
        if events.isEmpty { print("no events") }
        for event in events {
            let f = event.fields
            let columns = [
                event.createdAt.iso, f["type"]?.stringValue ?? "", "user=" + (f["userId"]?.stringValue ?? "-"), "ip=" + (f["ip"]?.stringValue ?? "-"),
                f["reason"]?.stringValue.map { "reason=\($0)" } ?? "", f["detail"]?.stringValue.map { "detail=\($0)" } ?? "",
                f["userAgent"]?.stringValue.map { "agent=\($0)" } ?? "",
            ]
            print(columns.filter { !$0.isEmpty }.joined(separator: "  "))
        }
    }
}
