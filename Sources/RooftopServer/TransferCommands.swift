import ArgumentParser
import Foundation
import Logging
import RooftopSQLite
import RooftopServices
import RooftopStorage

/// `rooftop export`: the whole database (schemas, objects with password hashes and sessions,
/// relations) and the stored files as JSON lines, to move to another database with `rooftop import`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the whole database as JSON lines.")
    @OptionGroup var options: ConfigOptions
    @Option(help: "Where to write (default: standard output).") var output: String?

    func run() async throws {
        let (database, files) = try await TransferDatabase.open(options)
        let sink: FileHandle
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure("cannot create \(output)", status: CommandFailure.inputOutput)
            }
            sink = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        } else {
            sink = FileHandle.standardOutput
        }
        let bar = ProgressBar()
        do {
            try await database.using { store in
                try await Transfer.export(store, files: files, emit: { sink.write(Data(($0 + "\n").utf8)) }, progress: bar.update)
            }
        } catch {
            throw CommandFailure("export failed: \(error)", status: CommandFailure.inputOutput)
        }
        bar.finish()
        try sink.close()
    }
}

/// `rooftop import`: reads an export into a new, empty database (SQLite or PostgreSQL).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Load an export into an empty database.")
    @OptionGroup var options: ConfigOptions
    @Option(help: "The export to read.") var input: String

    func run() async throws {
        guard let text = try? String(contentsOfFile: input, encoding: .utf8) else {
            throw CommandFailure("cannot read \(input) (a UTF-8 export file)", status: CommandFailure.noInput)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let (database, files) = try await TransferDatabase.open(options)
        let bar = ProgressBar()
        do {
            try await database.using { store in
                try await Transfer.importing(lines, into: store, files: files) { bar.update("lines", $0, lines.count) }
            }
        } catch {
            throw CommandFailure("import failed: \(error)", status: CommandFailure.dataError)
        }
        bar.finish()
    }
}

/// `rooftop backup`: a consistent copy of the SQLite database, safe while the server runs, and
/// of the files directory beside it (`<output>.files`).
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup", abstract: "Copy the SQLite database while it serves.")
    @OptionGroup var options: ConfigOptions
    @Option(help: "The new file to write.") var output: String

    func run() async throws {
        let configuration = try options.load(environment: ProcessInfo.processInfo.environment)
        guard configuration.databaseURI == nil else { throw ValidationError("backup copies SQLite; for PostgreSQL use pg_dump") }
        let path = configuration.dataDir + "/data.db"
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("no database at \(path): give the server's data directory with --data-dir", status: CommandFailure.noInput)
        }
        // The copy holds every user's data: private, like the database itself.
        DataDirectory.createPrivately()
        do {
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            try store.backup(to: output)
        } catch {
            throw CommandFailure("backup failed: \(error)", status: CommandFailure.inputOutput)
        }
        FileHandle.standardError.write(Data("backed up \(path) to \(output)\n".utf8))
        // After the database, so every file it refers to is there (files never change).
        let files = configuration.dataDir + "/files"
        if configuration.effectiveFileStorage == "disk", FileManager.default.fileExists(atPath: files) {
            do {
                let copied = try FileBackup.copy(from: files, to: output + ".files")
                FileHandle.standardError.write(Data("backed up \(copied) file(s) to \(output).files\n".utf8))
            } catch {
                throw ValidationError("backup of the files failed: \(error)")
            }
        }
    }
}

/// The database and the file store a transfer command works on, as `rooftop serve` would open them.
enum TransferDatabase {
    static func open(_ options: ConfigOptions) async throws -> (Database, any FileStore) {
        let configuration = try options.loadForServing()
        var logger = Logger(label: "rooftop")
        logger.logLevel = .error
        let database = try Database.open(configuration, logger: logger)
        return (database, try Database.fileStore(configuration, store: database.store))
    }
}

/// Progress on standard error: redrawn in place on a terminal, a line per class otherwise.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: used from one task at a time.
    private let terminal = isatty(2) != 0
    private var current = ""

    func update(_ label: String, _ done: Int, _ total: Int) {
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : width
        let text = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total)"
        if terminal {
            FileHandle.standardError.write(Data(("\r" + text).utf8))
        } else if label != current || done == total {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
        current = label
    }

    func finish() {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
