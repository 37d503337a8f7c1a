public import Hummingbird
import NIOCore

/// Request context: Hummingbird's core storage plus the peer address (the client's, or its trusted proxy's).
public struct ParseRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address, as the socket reports it (proxies are not trusted).
    public let remoteIP: String?

    /// Creates the context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteIP = source.channel.remoteAddress?.ipAddress
    }
}
