public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser sign-in for command-line apps (RFC 8252 §7.3): a listener on an ephemeral
/// 127.0.0.1 port receives the redirect, and the system browser (`open` on macOS, `xdg-open`
/// on Linux, or `open` given here) shows the provider's page. The server's `authRedirectURIs`
/// must hold `http://127.0.0.1<path>` (any port matches). One sign-in at a time.
public final class RTLoopbackAuthenticator: RTWebAuthenticator, @unchecked Sendable {
    /// The redirect's path.
    public let path: String
    /// How long to wait for the browser to come back.
    public let timeout: Duration
    private let openURL: (@Sendable (URL) throws -> Void)?
    private let lock = NSLock()
    private var listener: (socket: Int32, port: Int)?

    /// A loopback authenticator; `open` shows a URL (the system browser when nil).
    public init(path: String = "/callback", timeout: Duration = .seconds(300), open: (@Sendable (URL) throws -> Void)? = nil) {
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.timeout = timeout
        self.openURL = open
    }

    deinit { if let listener { _ = close(listener.socket) } }

    /// `http://127.0.0.1:<port><path>`, listening from now on.
    public func redirectURI() async throws -> URL {
        let port = try listening().port
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw RTError(.otherCause, "No loopback address.") }
        return url
    }

    /// Opens `url`, then waits (on a thread of its own) for the browser's request to the
    /// redirect path, answers it with a page saying the window can be closed, and stops
    /// listening.
    public func authenticate(_ url: URL) async throws -> URL {
        let (socket, port) = try listening()
        try open(url)
        let path = self.path
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { [self] in
                let result = Result { try Self.wait(socket: socket, port: port, path: path, milliseconds: milliseconds) }
                stopListening()
                continuation.resume(with: result)
            }
        }
    }

    private func open(_ url: URL) throws {
        if let openURL { return try openURL(url) }
        #if os(macOS) || os(Linux)
            let process = Process()
            #if os(macOS)
                process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
                process.arguments = [url.absoluteString]
            #else
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["xdg-open", url.absoluteString]
            #endif
            try process.run()
        #else
            throw RTError(.otherCause, "No browser to open here: pass `open` to RTLoopbackAuthenticator.")
        #endif
    }

    private func listening() throws -> (socket: Int32, port: Int) {
        try lock.withLock { () throws -> (socket: Int32, port: Int) in
            if let listener { return listener }
            let opened = try Self.listen()
            listener = opened
            return opened
        }
    }

    private func stopListening() {
        lock.withLock {
            if let listener { _ = close(listener.socket) }
            listener = nil
        }
    }

    /// A socket listening on 127.0.0.1 at a port the system picks.
    static func listen() throws(RTError) -> (socket: Int32, port: Int) {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw RTError(.otherCause, "Could not open a loopback socket.") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        var actual = sockaddr_in()
        var length = size
        let named = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard bound == 0, named == 0, Glue.listen(fd, 8) == 0 else {
            _ = close(fd)
            throw RTError(.otherCause, "Could not listen on 127.0.0.1.")
        }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Accepts connections until one asks for `path`: that request's URL.
    static func wait(socket fd: Int32, port: Int, path: String, milliseconds: Int32) throws -> URL {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0, Glue.readable(fd, milliseconds: left) else {
                throw RTError(.timeout, "The browser did not come back to the app in time.")
            }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            defer { _ = close(client) }
            guard let target = Glue.requestTarget(client) else { continue }
            let targetPath = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
            guard targetPath == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                Glue.respond(client, status: "404 Not Found", body: "Not found.")
                continue
            }
            Glue.respond(client, status: "200 OK", body: "Signed in. You can close this window and return to the app.")
            return url
        }
    }
}

/// The few socket calls, spelled once for Glibc and Darwin.
private enum Glue {
    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.listen(fd, backlog)
        #elseif canImport(Musl)
            Musl.listen(fd, backlog)
        #else
            Glibc.listen(fd, backlog)
        #endif
    }

    static func readable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// The request line's target (`/callback?code=…`), from at most 16 KiB read within 5 s.
    static func requestTarget(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16_384, !bytes.contains(0x0A) {
            guard readable(client, milliseconds: 5000) else { return nil }
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, 4096) }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
        let line = String(decoding: bytes.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }

    static func respond(_ client: Int32, status: String, body: String) {
        let html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Rooftop</title></head><body><p>\(body)</p></body></html>"
        let answer =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
            + "Content-Length: \(html.utf8.count)\r\nConnection: close\r\n\r\n\(html)"
        let bytes = Array(answer.utf8)
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, bytes.count, flags) }
    }
}
