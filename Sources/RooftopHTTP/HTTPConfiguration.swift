public import RooftopServices

/// Settings of the Parse REST layer.
public struct HTTPConfiguration: Sendable {
    /// The application id every request must carry.
    public var appId: String
    /// The master key.
    public var masterKey: String
    /// Client keys; when any is set, requests must carry a matching one.
    public var clientKey: String?
    /// The REST API key.
    public var restAPIKey: String?
    /// The JavaScript key.
    public var javascriptKey: String?
    /// The .NET key.
    public var dotNetKey: String?
    /// Addresses the master key is accepted from.
    public var masterKeyIps: [String] = ["127.0.0.1", "::1"]
    /// Where the API is mounted, e.g. `/parse`.
    public var mountPath: String = "/parse"
    /// Largest JSON body accepted, in bytes.
    public var maxBodySize: Int = 1 << 20
    /// The most sub-requests one `/batch` may carry (Parse: `requestComplexity.batchRequestLimit`).
    public var batchRequestLimit: Int = 50
    /// Path prefixes accepted in batch sub-request paths: the mount path, plus the path of
    /// `publicServerURL` when it differs.
    public var extraBatchPathPrefixes: [String] = []
    /// `Access-Control-Allow-Origin`.
    public var allowOrigin: String = "*"
    /// Rate limits (Parse's `rateLimit`); none by default here, the server adds its own.
    public var rateLimits: [RateLimiter.Rule] = []
    /// Proxies whose `X-Forwarded-For` is believed: the client is the right-most address in it
    /// that is not one of these. From anyone else the header is ignored (it is trivially forged).
    public var trustedProxies: [String] = []
    /// The hosted pages' layout, style sheet and words.
    public var pages: PageTemplates = .builtIn

    /// Creates a configuration.
    public init(appId: String, masterKey: String) {
        self.appId = appId
        self.masterKey = masterKey
    }

    /// Every accepted batch path prefix.
    var batchPathPrefixes: [String] { [mountPath] + extraBatchPathPrefixes }

    /// Whether any client key is configured.
    var requiresClientKey: Bool { [clientKey, restAPIKey, javascriptKey, dotNetKey].contains { $0 != nil } }
}
