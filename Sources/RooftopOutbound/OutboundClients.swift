package import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOSSL

/// The HTTP clients this server calls out with (sign-in providers, webhooks, S3), made in one
/// place so each trusts the same roots: the system's, plus the certificates of
/// `outboundCAFile` when the operator set one (a Keycloak, S3 or webhook receiver behind an
/// internal certificate authority).
///
/// Clients are process-wide and never shut down, like `HTTPClient.shared`: one per purpose
/// and CA file, made the first time it is asked for.
package enum OutboundClients {
    private static let made = NIOLockedValueBox([String: HTTPClient]())

    /// The client for `purpose` with `configuration`, trusting the system's roots and, when
    /// `caFile` is set, every certificate in that PEM file. Throws `OutboundTrustError` when
    /// the file can't be read or holds no certificate. The first call for a purpose and file
    /// fixes its configuration.
    package static func client(_ purpose: String, configuration: HTTPClient.Configuration, caFile: String?) throws(OutboundTrustError) -> HTTPClient {
        guard let caFile else { return client(purpose, configuration: configuration) }
        let key = purpose + "\n" + caFile
        if let found = made.withLockedValue({ $0[key] }) { return found }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw OutboundTrustError(description: "outboundCAFile \(caFile) is not a readable PEM file of CA certificates")
        }
        guard !certificates.isEmpty else { throw OutboundTrustError(description: "outboundCAFile \(caFile) holds no certificate") }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(certificates)]
        var configuration = configuration
        configuration.tlsConfiguration = tls
        return made(key, configuration)
    }

    /// The client for `purpose` with `configuration`, trusting the system's roots only.
    package static func client(_ purpose: String, configuration: HTTPClient.Configuration) -> HTTPClient {
        made(purpose + "\n", configuration)
    }

    private static func made(_ key: String, _ configuration: HTTPClient.Configuration) -> HTTPClient {
        made.withLockedValue { made in
            if let found = made[key] { return found }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            made[key] = client
            return client
        }
    }
}

/// `outboundCAFile` could not be used: what is wrong with it, naming the file.
package struct OutboundTrustError: Error, CustomStringConvertible {
    /// The operator's message.
    package var description: String
}
