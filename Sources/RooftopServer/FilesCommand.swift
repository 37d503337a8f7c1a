import ArgumentParser
import Foundation
import RooftopCore
import RooftopServices
import RooftopStorage

/// `rooftop files`: operator tools for the stored files.
struct FilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files", abstract: "Work on the stored files.", subcommands: [UnreferencedFilesCommand.self])
}

/// `rooftop files unreferenced`: lists the files no object refers to any more; deletes them
/// with `--delete`. A dry run by default.
struct UnreferencedFilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unreferenced", abstract: "List (or, with --delete, delete) files no object refers to.")
    @OptionGroup var options: ConfigOptions
    @Flag(help: "Delete them (without it, only list them).") var delete = false
    @Option(help: "Only files stored at least this many hours ago (a fresh upload may be about to be saved in an object).")
    var minAgeHours = 24

    func run() async throws {
        guard minAgeHours >= 0 else { throw ValidationError("--min-age-hours must be 0 or more") }
        let (database, files) = try await TransferDatabase.open(options)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let cutoff = ParseDate(millisecondsSince1970: now - Int64(minAgeHours) * 3_600_000)
        let deleteThem = delete
        let (count, bytes) = try await database.using { store in
            let unreferenced = try await FileReferences.unreferenced(files: files, store: store, before: cutoff)
            for info in unreferenced {
                print("\(info.name)  \(info.size) bytes  \(info.createdAt.iso)")
                if deleteThem { _ = try await files.delete(info.name) }
            }
            return (unreferenced.count, unreferenced.reduce(Int64(0)) { $0 + $1.size })
        }
        if deleteThem {
            print("deleted \(count) unreferenced file(s), \(bytes) bytes")
        } else {
            print("\(count) unreferenced file(s), \(bytes) bytes\(count > 0 ? "; run again with --delete to delete them" : "")")
        }
    }
}
