import Foundation
import RooftopConsole
import RooftopMail
import RooftopSQLite
import RooftopServices
import RooftopStorage
import ServiceLifecycle

/// What the console's operations pages read, wired from `dependencies`: the metrics registry,
/// the export `rooftop export` writes, SQLite's backup and the file outbox.
func addOperations(to status: inout ConsoleStatus, _ dependencies: Dependencies) {
    let store = dependencies.store
    if let metrics = dependencies.metrics {
        let queue = dependencies.mail?.queue
        status.metrics = { String(decoding: await metrics.scrape(mail: queue, pool: store.poolStatistics), as: UTF8.self) }
    }
    let files = dependencies.fileStore
    status.export = { emit in try await Transfer.export(store, files: files, emit: emit) }
    if let sqlite = store as? SQLiteStore { status.backup = { try await backupCopy(sqlite) } }
    if let directory = dependencies.outboxDirectory {
        let outbox = FileOutbox(directory: directory)
        let mail: @Sendable (FileOutbox.Entry, String) -> ConsoleMail = { ConsoleMail(to: $0.to, subject: $0.subject, date: $0.date, text: $1) }
        status.outbox = ConsoleOutbox(
            names: { outbox.names() }, entry: { outbox.entry($0).map { mail($0, "") } },
            message: { outbox.message($0).map { mail($0.entry, $0.text) } })
    }
}

/// SQLite's online backup into a new file beside the database (its directory is private), off
/// the event loop since the copy blocks; the path of the copy.
func backupCopy(_ store: SQLiteStore) async throws -> String {
    let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
    let path = directory + "/.console-backup-\(UUID().uuidString).db"
    return try await BlockingCall.run {
        // A copy is unlinked once its download opens it; one older than an hour was left by a
        // process that stopped while copying.
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(".console-backup-") {
            let old = directory + "/" + name
            if let modified = (try? files.attributesOfItem(atPath: old))?[.modificationDate] as? Date, modified.timeIntervalSinceNow < -3600 {
                try? files.removeItem(atPath: old)
            }
        }
        do {
            try store.backup(to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return path
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}

/// Samples the request counters for the console's rates every 10 s on the server clock, so the
/// status page has a minute's and five minutes' history when someone looks.
struct RateSampler: Service {
    let console: ConsoleResponder
    let clock: any ServerClock

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    await console.sampleRates()
                    try await clock.sleep(for: .seconds(10))
                }
            }
        } catch is CancellationError {
            // Shutdown.
        }
    }
}
