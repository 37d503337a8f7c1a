/// The file outbox as the console reads it (the composition root wires `FileOutbox`).
package struct ConsoleOutbox: Sendable {
    /// The messages' names, newest first.
    package var names: @Sendable () -> [String]
    /// One message's headers (`text` empty), by its exact name; nil when there is none.
    package var entry: @Sendable (String) -> ConsoleMail?
    /// One message with its plain-text body, by its exact name.
    package var message: @Sendable (String) -> ConsoleMail?

    /// Creates the reader.
    package init(
        names: @escaping @Sendable () -> [String], entry: @escaping @Sendable (String) -> ConsoleMail?,
        message: @escaping @Sendable (String) -> ConsoleMail?
    ) {
        self.names = names
        self.entry = entry
        self.message = message
    }
}

/// One message of the outbox.
package struct ConsoleMail: Sendable {
    /// Recipient, subject and `Date` header as written.
    package var to: String, subject: String, date: String
    /// The plain-text body (empty in the list).
    package var text: String

    /// Creates a message.
    package init(to: String, subject: String, date: String, text: String) {
        self.to = to
        self.subject = subject
        self.date = date
        self.text = text
    }
}

/// Writes the whole database, as `rooftop export` does, one JSON line at a time to `emit`.
package typealias ConsoleExport = @Sendable (_ emit: (String) async throws -> Void) async throws -> Void

/// Makes a consistent copy of the SQLite database in a new private file and returns its path;
/// the caller streams and deletes it.
package typealias ConsoleBackup = @Sendable () async throws -> String
