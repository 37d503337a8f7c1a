import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail to one SMTP server over SwiftNIO: plain, STARTTLS or implicit TLS; AUTH PLAIN or
/// LOGIN; one connection per message, with a deadline over the whole conversation.
package struct SMTPClient: MailTransport {
    /// How the connection is protected.
    package enum Security: String, Sendable, CaseIterable {
        /// No TLS: for a relay on the same host or a private network only.
        case none
        /// Plain connection upgraded with `STARTTLS` (port 587); refused if the server does not offer it.
        case starttls
        /// TLS from the first byte (port 465).
        case tls
    }

    /// Where and how to connect.
    package struct Configuration: Sendable {
        /// Server host name (also checked against its certificate).
        package var host: String
        /// Server port.
        package var port: Int
        /// Connection protection.
        package var security: Security
        /// User name and password for AUTH, if the server needs them.
        package var username: String?
        /// Password for AUTH.
        package var password: String?
        /// Seconds for the whole conversation, connect included.
        package var timeout: Int
        /// PEM file of trusted CA certificates; the system's when nil.
        package var caFile: String?
        /// Name sent in `EHLO`.
        package var heloName: String

        /// Creates a configuration.
        package init(
            host: String, port: Int, security: Security = .starttls, username: String? = nil, password: String? = nil, timeout: Int = 30,
            caFile: String? = nil, heloName: String = "localhost"
        ) {
            self.host = host
            self.port = port
            self.security = security
            self.username = username
            self.password = password
            self.timeout = timeout
            self.caFile = caFile
            self.heloName = heloName
        }
    }

    let configuration: Configuration

    /// Creates a client.
    package init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Sends one message; a 4xx reply or a network failure is temporary, a 5xx reply permanent.
    package func deliver(_ message: MailMessage) async throws {
        let config = configuration
        let tls = try makeTLSContext()
        let hostname = serverHostname
        let group = MultiThreadedEventLoopGroup.singleton
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(Int64(config.timeout)))
                .connect(host: config.host, port: config.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if config.security == .tls {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw MailError(temporary: true, "cannot connect to \(config.host):\(config.port): \(error)")
        }
        let deadline = channel.channel.eventLoop.scheduleTask(in: .seconds(Int64(config.timeout))) { channel.channel.close(promise: nil) }
        defer { deadline.cancel() }
        do {
            try await channel.executeThenClose { inbound, outbound in
                var session = SMTPSession(lines: inbound.makeAsyncIterator(), outbound: outbound, timeout: config.timeout)
                try await session.greeting()
                var capabilities = try await session.command("EHLO \(config.heloName)", expect: 250)
                if config.security == .starttls {
                    guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                        throw MailError(temporary: false, "\(config.host) does not offer STARTTLS")
                    }
                    _ = try await session.command("STARTTLS", expect: 220)
                    // The handler isn't Sendable: make and add it on the channel's own event loop.
                    let pipeline = channel.channel.pipeline
                    try await channel.channel.eventLoop.submit {
                        try pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname), position: .first)
                    }.get()
                    capabilities = try await session.command("EHLO \(config.heloName)", expect: 250)
                }
                if let username = config.username, let password = config.password {
                    try await session.authenticate(username: username, password: password, capabilities: capabilities)
                }
                _ = try await session.command("MAIL FROM:<\(message.envelopeFrom)>", expect: 250)
                _ = try await session.command("RCPT TO:<\(MailMessage.clean(message.to))>", expect: 250, 251)
                _ = try await session.command("DATA", expect: 354)
                _ = try await session.command(SMTPSession.dotStuffed(message.rendered()) + ".", label: "message", expect: 250)
                _ = try? await session.command("QUIT", expect: 221)
            }
        } catch let error as MailError {
            throw error
        } catch {
            throw MailError(temporary: true, "SMTP conversation with \(config.host) failed: \(error)")
        }
    }

    /// The name for SNI and certificate checks; nil for an IP address, whose certificate is then
    /// checked against the peer's address (SNI forbids IP literals).
    var serverHostname: String? {
        let host = configuration.host
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 ? nil : host
    }

    private func makeTLSContext() throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.caFile { tls.trustRoots = .file(caFile) }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw MailError(temporary: false, "cannot set up TLS: \(error)")
        }
    }
}

/// One SMTP conversation: commands out, (multi-line) replies in.
struct SMTPSession {
    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let timeout: Int

    /// Reads one reply: `250-…` lines continue it, `250 …` ends it. Returns the text lines.
    mutating func reply() async throws -> (code: Int, lines: [String]) {
        var texts: [String] = []
        while true {
            guard let buffer = try await lines.next() else {
                throw MailError(temporary: true, "the server closed the connection (or the \(timeout) s deadline passed)")
            }
            let line = String(buffer: buffer)
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)) else {
                throw MailError(temporary: true, "malformed reply: \(line.prefix(80))")
            }
            texts.append(String(line.dropFirst(4)))
            if line.utf8.count == 3 || line.dropFirst(3).first == " " { return (code, texts) }
        }
    }

    /// Reads the greeting: 4xx is temporary, anything but 220 permanent.
    mutating func greeting() async throws {
        let (code, texts) = try await reply()
        guard code == 220 else { throw MailError(temporary: (400..<500).contains(code), "greeting was \(code) \(texts.joined(separator: " "))") }
    }

    /// Sends `line` (CRLF added) and checks the reply; errors name `label` (default: the line),
    /// so credentials and message text never reach a log.
    mutating func command(_ line: String, label: String? = nil, expect codes: Int...) async throws -> [String] {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        let (code, texts) = try await reply()
        guard codes.contains(code) else {
            throw MailError(temporary: (400..<500).contains(code), "\(label ?? line) answered \(code) \(texts.joined(separator: " "))")
        }
        return texts
    }

    /// AUTH PLAIN when offered (or when nothing is advertised), else AUTH LOGIN.
    mutating func authenticate(username: String, password: String, capabilities: [String]) async throws {
        let mechanisms =
            capabilities.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased().split(separator: " ").dropFirst().map(String.init) ?? []
        if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
            let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            _ = try await command("AUTH PLAIN \(token)", label: "AUTH PLAIN", expect: 235)
        } else {
            _ = try await command("AUTH LOGIN", expect: 334)
            _ = try await command(Data(username.utf8).base64EncodedString(), label: "AUTH LOGIN user name", expect: 334)
            _ = try await command(Data(password.utf8).base64EncodedString(), label: "AUTH LOGIN password", expect: 235)
        }
    }

    /// A line that starts with a dot gets a second one (RFC 5321 §4.5.2).
    static func dotStuffed(_ text: String) -> String {
        text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
    }
}

/// Splits the byte stream into lines (without CRLF); refuses lines longer than 64 KiB.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > 65_536 { throw MailError(temporary: true, "reply line too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        guard var line = buffer.readSlice(length: length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line = line.getSlice(at: line.readerIndex, length: line.readableBytes - 1) ?? line }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}
