import Foundation
package import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL, read into postgres-nio's
/// client configuration.
package struct PostgresURL: Sendable {
    /// The client configuration the URL describes.
    package var configuration: PostgresClient.Configuration
    /// The same, for a single connection outside the pool (the cache bus's `LISTEN`).
    var connection: PostgresConnection.Configuration
    /// The URL with its password hidden, for logs and messages.
    package var redacted: String

    /// Reads `text`; `poolSize` is the most connections this process opens.
    ///
    /// `sslmode`: `disable`, `prefer` (the default: TLS when the server offers it, unverified),
    /// `require` (TLS, unverified), `verify-full` (TLS, certificate and host name checked).
    package init(_ text: String, poolSize: Int = 20) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else { throw PostgresURLError("expected postgres://user:password@host:port/database") }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding }
        let database = String(components.path.drop { $0 == "/" }).removingPercentEncoding
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            switch mode {
            case "disable":
                (tls, connectionTLS) = (.disable, .disable)
            case "prefer", "allow":
                (tls, connectionTLS) = (.prefer(unverified), .prefer(try NIOSSLContext(configuration: unverified)))
            case "require":
                (tls, connectionTLS) = (.require(unverified), .require(try NIOSSLContext(configuration: unverified)))
            case "verify-ca", "verify-full":
                let verified = TLSConfiguration.makeClientConfiguration()
                (tls, connectionTLS) = (.require(verified), .require(try NIOSSLContext(configuration: verified)))
            default:
                throw PostgresURLError("unknown sslmode \(mode) (disable, prefer, require, verify-full)")
            }
        } catch let error as PostgresURLError {
            throw error
        } catch {
            throw PostgresURLError("TLS set-up failed: \(error)")
        }
        guard poolSize > 0 else { throw PostgresURLError("the pool size must be positive") }
        configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: password,
            database: database?.isEmpty == false ? database : nil, tls: tls)
        configuration.options.maximumConnections = poolSize
        connection = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: password,
            database: database?.isEmpty == false ? database : nil, tls: connectionTLS)
        var hidden = components
        if hidden.password != nil { hidden.password = "***" }
        redacted = hidden.string ?? "postgres://\(host)"
    }
}

/// Why a database URL could not be used.
package struct PostgresURLError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, for the operator.
    package let description: String
    init(_ description: String) { self.description = description }
}
