import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// The operations pages: request rates on the status page, the export and backup downloads,
/// and the mail outbox.
extension ConsoleResponder {
    static let outboxPageSize = 25

    /// Takes one sample of the request counters (the sampler calls this every 10 s).
    package func sampleRates() async {
        guard let metrics = status.metrics else { return }
        await status.rates.record(MetricsReading(await metrics()), at: clock.now())
    }

    /// The status page's rates and pool, from the metrics registry (nil when metrics are off).
    func rateValues(_ visit: ConsoleVisit) async -> [String: Any]? {
        guard let metrics = status.metrics else { return nil }
        let reading = MetricsReading(await metrics())
        let now = clock.now()
        var rates: [[String: Any]] = []
        for (key, window) in [("opsLastMinute", Int64(60_000)), ("opsLastFiveMinutes", 300_000)] {
            let rate = await status.rates.rate(window: window, now: now, current: reading)
            rates.append([
                "label": visit.word(key), "requests": rate.map { Self.perSecond($0.requests) } ?? "—",
                "errors": rate.map { Self.perSecond($0.errors) } ?? "—", "pending": rate == nil,
            ])
        }
        await status.rates.record(reading, at: now)
        var values: [String: Any] = ["rates": rates]
        if let capacity = reading.pool["capacity"] {
            values["pool"] = [
                "capacity": Int(capacity), "inUse": Int(reading.pool["in_use"] ?? 0), "waiting": Int(reading.pool["waiting"] ?? 0),
            ]
        }
        return values
    }

    static func perSecond(_ value: Double) -> String { String(format: "%.2f", value) }

    func exportPage(_ visit: inout ConsoleVisit) -> Response {
        let values: [String: Any] = [
            "owner": visit.admin?.role == .owner, "canBackup": status.backup != nil, "csrf": visit.admin?.csrf ?? "",
        ]
        return visit.page("opsExport", title: visit.word("opsExport"), values: values, section: "status")
    }

    /// The export as a file, streamed a batch of lines at a time as the store is read.
    func exportDownload(_ visit: inout ConsoleVisit) async -> Response {
        guard let export = status.export else { return visit.message(.notFound, "notFound", status: .notFound) }
        await accounts.audit.record(.adminExport, userId: nil, origin: visit.origin)
        let body = ResponseBody { writer in
            var pending = ByteBuffer()
            try await export { line in
                pending.writeString(line)
                pending.writeString("\n")
                if pending.readableBytes >= 65_536 {
                    try await writer.write(pending)
                    pending.clear()
                }
            }
            if pending.readableBytes > 0 { try await writer.write(pending) }
            try await writer.finish(nil)
        }
        return Self.attachment("rooftop-export-\(stamp()).jsonl", type: "application/x-ndjson", body: body)
    }

    /// A consistent copy of the SQLite file, made in a private temporary file, streamed, then
    /// deleted.
    func backupDownload(_ visit: inout ConsoleVisit) async -> Response {
        guard let backup = status.backup else { return visit.message(.notFound, "opsBackupPostgres", status: .notFound) }
        let path: String
        let size: Int
        do {
            path = try await backup()
            size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            return visit.page(
                "message", title: visit.word("opsBackup"), values: ["heading": visit.word("opsBackup"), "text": visit.word("opsBackupFailed")],
                status: .internalServerError)
        }
        // The copy holds every password hash: unlinked as soon as it is open, so nothing is left
        // on disk whether the download finishes, fails or never starts.
        let handle = FileHandle(forReadingAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
        guard let handle else {
            return visit.page(
                "message", title: visit.word("opsBackup"), values: ["heading": visit.word("opsBackup"), "text": visit.word("opsBackupFailed")],
                status: .internalServerError)
        }
        await accounts.audit.record(.adminBackup, userId: nil, origin: visit.origin)
        let body = ResponseBody(contentLength: size) { writer in
            defer { try? handle.close() }
            while let data = try handle.read(upToCount: 65_536), !data.isEmpty { try await writer.write(ByteBuffer(bytes: data)) }
            try await writer.finish(nil)
        }
        return Self.attachment("rooftop-backup-\(stamp()).db", type: "application/vnd.sqlite3", body: body)
    }

    /// `20261126-081500` from the server clock: downloads sort by when they were made.
    func stamp() -> String {
        let iso = clock.now().iso
        let digits = iso.prefix(19).filter { $0.isNumber }
        return String(digits.prefix(8)) + "-" + String(digits.dropFirst(8))
    }

    static func attachment(_ name: String, type: String, body: ResponseBody) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: headers, body: body)
    }

    func outboxPage(_ visit: inout ConsoleVisit) -> Response {
        guard let outbox = status.outbox else {
            return visit.page("opsNoOutbox", title: visit.word("opsOutbox"), values: [:], section: "status")
        }
        let names = outbox.names()
        let pages = max(1, (names.count + Self.outboxPageSize - 1) / Self.outboxPageSize)
        // Out of range (huge, negative, not a number) is the nearest page that exists.
        let page = min(max(1, visit.query["page"].flatMap { Int($0) } ?? 1), pages)
        let shown = names.dropFirst((page - 1) * Self.outboxPageSize).prefix(Self.outboxPageSize)
        let messages = shown.compactMap { name -> [String: Any]? in
            guard let mail = outbox.entry(name) else { return nil }
            return ["name": name, "to": mail.to, "subject": mail.subject.isEmpty ? "—" : mail.subject, "date": mail.date]
        }
        var values: [String: Any] = [
            "messages": messages, "hasMessages": !messages.isEmpty, "page": page, "pages": pages, "count": names.count,
        ]
        if page > 1 { values["newer"] = visit.base + "/outbox?page=\(page - 1)" }
        if page < pages { values["older"] = visit.base + "/outbox?page=\(page + 1)" }
        return visit.page("opsOutbox", title: visit.word("opsOutbox"), values: values, section: "outbox")
    }

    /// One message. Its body carries live single-use links (reset, verification), so only
    /// owners read it: a read-only admin who could would be able to take over the account.
    func outboxMessage(_ visit: inout ConsoleVisit, name: String) -> Response {
        guard let outbox = status.outbox, let mail = outbox.message(name) else {
            return visit.message(.notFound, "opsNoMessage", status: .notFound)
        }
        guard visit.admin?.role == .owner else { return visit.message(.forbidden, "opsOwnerOnlyMessage", status: .forbidden) }
        let values: [String: Any] = ["to": mail.to, "subject": mail.subject, "date": mail.date, "text": mail.text]
        return visit.page("opsMessage", title: visit.word("opsOutbox"), values: values, section: "outbox")
    }
}
