import ArgumentParser
import Foundation
import RooftopMail

/// `rooftop outbox list|show`: reads the mail the server wrote to `<data-dir>/outbox` instead
/// of sending it (the quickstart's default transport).
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Read mail written to the file outbox.", subcommands: [List.self, Show.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List messages, oldest first.")
        @OptionGroup var location: DataDirectoryOption

        func run() throws {
            let dataDir = location.resolved()
            let entries = try FileOutbox(directory: dataDir + "/outbox").list()
            if entries.isEmpty { print("no messages in \(dataDir)/outbox") }
            for entry in entries { print("\(entry.name)  \(entry.date)  \(entry.to)  \(entry.subject)") }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one message with its bodies decoded.")
        @OptionGroup var location: DataDirectoryOption
        @Argument(help: "A file name from `outbox list`, a unique prefix of one, or `latest`.") var name: String

        func run() throws {
            let outbox = FileOutbox(directory: location.resolved() + "/outbox")
            let all = try outbox.list()
            if all.isEmpty {
                throw CommandFailure(
                    "the outbox \(outbox.directory) is empty: the server has written no mail to it yet", status: CommandFailure.noInput)
            }
            let chosen = name == "latest" ? all.last?.name ?? name : name
            do {
                print(try outbox.show(chosen))
            } catch let error as MailError {
                throw CommandFailure(error.description, status: CommandFailure.noInput)
            }
        }
    }
}
