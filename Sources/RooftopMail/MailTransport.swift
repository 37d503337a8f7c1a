/// Something that delivers a message: the file outbox, the SMTP client, or a test's recorder.
package protocol MailTransport: Sendable {
    /// Delivers one message, or throws a `MailError`.
    func deliver(_ message: MailMessage) async throws
}

/// Why a delivery failed, and whether trying again later may help.
package struct MailError: Error, CustomStringConvertible, Sendable {
    /// A temporary failure (a 4xx reply, a refused or dropped connection, a timeout) is retried;
    /// a permanent one (5xx, a bad address) is not.
    package var isTemporary: Bool
    /// What happened, without credentials.
    package var description: String

    /// Creates an error.
    package init(temporary: Bool, _ description: String) {
        self.isTemporary = temporary
        self.description = description
    }
}
