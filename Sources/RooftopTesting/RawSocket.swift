import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking loopback TCP connection from a chosen source address (any of 127.0.0.0/8 is
/// local on Linux, so one machine can play several clients), with a receive deadline so a test
/// of a server that fails to close never hangs.
package final class RawSocket: @unchecked Sendable {
    /// The socket.
    package let fd: Int32

    /// Connects to `port` on 127.0.0.1 from `source`, with a receive deadline of `timeout` seconds.
    package init(port: Int, from source: String = "127.0.0.1", timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = UInt16(port).bigEndian
        var deadline = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &deadline, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Sends `text` whole.
    package func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the server closes the connection, and whether it did (false: the
    /// deadline passed with the connection still open).
    package func receiveUntilClosed() -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                // A reset is a close too; a timeout is not.
                return (String(decoding: data, as: UTF8.self), errno != EAGAIN && errno != EWOULDBLOCK)
            }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    /// The status code of the first reply received (0 if none).
    package static func status(_ reply: String) -> Int {
        Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// Runs `body` on a blocking thread outside Swift's cooperative pool.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// A blocking loopback TCP connection.
package final class LoopbackConnection {
    /// The socket.
    package let fd: Int32

    /// Connects to `port` on 127.0.0.1.
    package init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }
    deinit { close(fd) }

    /// Sends `text` whole.
    package func send(_ text: String) { _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count - 1, 0) } }

    /// Everything until the server closes the connection.
    package func receiveAll() -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            // A signal (a child process of another test ending) is not the end of the reply.
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
