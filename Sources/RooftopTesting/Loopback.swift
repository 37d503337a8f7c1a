import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sockets on 127.0.0.1 for tests that need a port.
package enum Loopback {
    /// A TCP socket bound to a free port on 127.0.0.1, listening if asked; the caller closes it.
    package static func boundSocket(listening: Bool = false) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, !listening || listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port that was free a moment ago.
    package static func freePort() throws -> Int {
        let (fd, port) = try boundSocket()
        close(fd)
        return port
    }
}
