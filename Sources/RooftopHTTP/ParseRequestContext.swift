package import Hummingbird
import NIOCore

/// Request context: Hummingbird's core storage plus the peer address (the client's, or its trusted proxy's).
package struct ParseRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address, as the socket reports it (proxies are not trusted).
    package let remoteIP: String?
    /// The connection (to answer `Expect: 100-continue`).
    let channel: any Channel
    /// The route the request resolved to, once the responder looked it up (`ResolvedRoute`).
    var route: ResolvedRoute?

    /// Creates the context for a new request.
    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteIP = source.channel.remoteAddress?.ipAddress
        channel = source.channel
    }
}
