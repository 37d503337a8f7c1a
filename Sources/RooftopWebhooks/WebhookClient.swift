import AsyncHTTPClient
import NIOCore
import NIOHTTP1
package import RooftopOutbound
import RooftopServices

/// The HTTP client behind webhooks: redirects refused (a hook may not be bounced to a host the
/// operator did not allow), bounded time and answer size, and a refused or failed connection
/// fails the call at once (async-http-client would otherwise keep retrying it until the
/// deadline). Made by `OutboundClients`, process-wide.
private let webhookConfiguration: HTTPClient.Configuration = {
    var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)), decompression: .disabled)
    configuration.connectionPool.retryConnectionEstablishment = false
    return configuration
}()

/// POSTs webhook payloads with async-http-client.
package struct WebhookClient: WebhookTransport {
    /// The largest answer read.
    static let maxBytes = 1 << 20
    let client: HTTPClient

    /// The client, trusting the system's roots.
    package init() {
        client = OutboundClients.client("webhooks", configuration: webhookConfiguration)
    }

    /// The client, trusting `caFile`'s certificates besides the system's roots.
    package init(caFile: String?) throws(OutboundTrustError) {
        client = try OutboundClients.client("webhooks", configuration: webhookConfiguration, caFile: caFile)
    }

    /// POSTs `body` to `url`: the answer's status and body.
    package func post(_ url: String, body: [UInt8], key: String?, timeout: Duration) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "rooftop")
        if let key { request.headers.add(name: "X-Parse-Webhook-Key", value: key) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let seconds = timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0)
        do {
            let response = try await client.execute(request, timeout: .seconds(max(seconds, 1)))
            let answer = try await response.body.collect(upTo: Self.maxBytes)
            return (Int(response.status.code), Array(answer.readableBytesView))
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
            throw WebhookTimedOut()
        }
    }
}
