import Foundation
import Logging
import RooftopMail
import RooftopTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The SMTP client against a real SMTP server (aiosmtpd) on loopback.
@Suite struct SMTPClientTests {
    let message = MailMessage(
        from: "My App <no-reply@example.com>", to: "ana@example.com", subject: "パスワードの再設定", text: "Open https://example.com/r?token=abc",
        html: "<a href=\"https://example.com/r?token=abc\">reset</a>")

    func client(_ server: SMTPTestServer, _ security: SMTPClient.Security, user: String? = nil, password: String? = nil, timeout: Int = 10)
        -> SMTPClient
    {
        SMTPClient(
            configuration: .init(
                host: "127.0.0.1", port: server.port, security: security, username: user, password: password, timeout: timeout,
                caFile: server.caFile))
    }

    func check(_ received: String) {
        #expect(received.contains("X-Envelope-From: no-reply@example.com"))
        #expect(received.contains("X-Envelope-To: ana@example.com"))
        #expect(received.contains(Data("Open https://example.com/r?token=abc".utf8).base64EncodedString()))
    }

    @Test func plainConnection() async throws {
        let server = try SMTPTestServer()
        try await client(server, .none).deliver(message)
        let received = try await server.waitForMessages(1)
        #expect(received.count == 1)
        check(received.first ?? "")
    }

    /// STARTTLS (certificate checked against the test CA) then AUTH PLAIN.
    @Test func startTLSWithAuthPlain() async throws {
        let server = try SMTPTestServer(tls: .starttls, auth: ("mailer", "s3cret"))
        try await client(server, .starttls, user: "mailer", password: "s3cret").deliver(message)
        check(try await server.waitForMessages(1).first ?? "")
    }

    /// Implicit TLS (port 465 style) and AUTH LOGIN when PLAIN is not offered.
    @Test func implicitTLSWithAuthLogin() async throws {
        let server = try SMTPTestServer(tls: .implicit, auth: ("mailer", "s3cret"), loginOnly: true)
        try await client(server, .tls, user: "mailer", password: "s3cret").deliver(message)
        check(try await server.waitForMessages(1).first ?? "")
    }

    /// A wrong password is a permanent failure whose message does not carry the password.
    @Test func wrongPasswordIsPermanent() async throws {
        let server = try SMTPTestServer(tls: .starttls, auth: ("mailer", "s3cret"))
        let error = await #expect(throws: MailError.self) {
            try await client(server, .starttls, user: "mailer", password: "wrong-pass").deliver(message)
        }
        #expect(error?.isTemporary == false, "\(String(describing: error))")
        #expect(error?.description.contains("535") == true)
        #expect(error?.description.contains("wrong-pass") == false)
        #expect(error?.description.contains(Data("\0mailer\0wrong-pass".utf8).base64EncodedString()) == false)
    }

    /// A certificate from an unknown CA is refused: no message leaves in the clear or to an impostor.
    @Test func untrustedCertificateIsRefused() async throws {
        let server = try SMTPTestServer(tls: .starttls)
        let untrusting = SMTPClient(configuration: .init(host: "127.0.0.1", port: server.port, security: .starttls, timeout: 5))
        await #expect(throws: MailError.self) { try await untrusting.deliver(message) }
        #expect(server.messages().isEmpty)
    }

    /// STARTTLS required but not offered: refused, nothing sent in the clear.
    @Test func missingStartTLSIsRefused() async throws {
        let server = try SMTPTestServer()
        let error = await #expect(throws: MailError.self) { try await client(server, .starttls).deliver(message) }
        #expect(error?.isTemporary == false)
        #expect(server.messages().isEmpty)
    }

    /// A server that accepts the connection and never answers: a temporary failure at the deadline.
    @Test func silentServerTimesOut() async throws {
        let (fd, port) = try Loopback.boundSocket(listening: true)
        defer { close(fd) }
        let silent = SMTPClient(configuration: .init(host: "127.0.0.1", port: port, security: .none, timeout: 1))
        let start = ContinuousClock.now
        let error = await #expect(throws: MailError.self) { try await silent.deliver(message) }
        #expect(error?.isTemporary == true)
        // Generous: on a loaded machine the 1 s deadline fires late; without it this never returns.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// The queue retries temporary failures (451 twice, then a server that was down comes up)
    /// and counts them; the caller never waits.
    @Test func queueRetriesTemporaryFailures() async throws {
        let server = try SMTPTestServer(failFirst: 2)
        var logger = Logger(label: "mail-test")
        logger.logLevel = .critical
        let queue = MailQueue(transport: client(server, .none), maxAttempts: 4, firstDelay: .milliseconds(50), logger: logger)
        await queue.send(message)
        await queue.drain()
        #expect(server.messages().count == 1)
        #expect(await queue.currentCounters() == MailQueue.Counters(sent: 1, failed: 0, retried: 2, pending: 0))

        // Down at first, up after the first retry.
        let port = try Loopback.freePort()
        let late = MailQueue(
            transport: SMTPClient(configuration: .init(host: "127.0.0.1", port: port, security: .none, timeout: 5)), maxAttempts: 6,
            firstDelay: .milliseconds(300), logger: logger)
        await late.send(message)
        try await Task.sleep(for: .milliseconds(100))
        let lateServer = try SMTPTestServer(port: port)
        await late.drain()
        #expect(lateServer.messages().count == 1)
        #expect(await late.currentCounters().sent == 1)
        #expect(await late.currentCounters().retried >= 1)
    }

    /// A permanent failure is not retried.
    @Test func queueGivesUpOnPermanentFailures() async throws {
        let server = try SMTPTestServer(tls: .starttls, auth: ("mailer", "s3cret"))
        var logger = Logger(label: "mail-test")
        logger.logLevel = .critical
        let queue = MailQueue(
            transport: client(server, .starttls, user: "mailer", password: "nope"), maxAttempts: 4, firstDelay: .milliseconds(10), logger: logger)
        await queue.send(message)
        await queue.drain()
        #expect(await queue.currentCounters() == MailQueue.Counters(sent: 0, failed: 1, retried: 0, pending: 0))
    }

    /// At shutdown the queue waits a bounded time, then gives up on what is left and says how much.
    @Test func finishIsBounded() async throws {
        var logger = Logger(label: "mail-test")
        logger.logLevel = .critical
        let down = SMTPClient(configuration: .init(host: "127.0.0.1", port: try Loopback.freePort(), security: .none, timeout: 2))
        let queue = MailQueue(transport: down, maxAttempts: 10, firstDelay: .seconds(5), logger: logger)
        await queue.send(message)
        let start = ContinuousClock.now
        #expect(await queue.finish(within: .milliseconds(300)) == 1)
        #expect(ContinuousClock.now - start < .seconds(30))
        await queue.drain()
        #expect(await queue.currentCounters().failed == 1)
        #expect(await queue.currentCounters().pending == 0)
    }
}
