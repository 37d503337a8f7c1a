package import RooftopServices

/// Settings of the Parse REST layer.
package struct HTTPConfiguration: Sendable {
    /// The application id every request must carry.
    package var appId: String
    /// The master key.
    package var masterKey: String
    /// Client keys; when any is set, requests must carry a matching one.
    package var clientKey: String?
    /// The REST API key.
    package var restAPIKey: String?
    /// The JavaScript key.
    package var javascriptKey: String?
    /// The .NET key.
    package var dotNetKey: String?
    /// Addresses or CIDR blocks (`10.0.0.0/8`) the master key is accepted from; the client's
    /// address, behind a trusted proxy the one it names. `0.0.0.0/0` accepts it from anywhere.
    package var masterKeyIps: [String] = ["127.0.0.1", "::1"]
    /// Where the API is mounted, e.g. `/parse`.
    package var mountPath: String = "/parse"
    /// Per-request metrics through swift-metrics (on with `metricsPort`).
    package var metrics = RequestMetrics(enabled: false)
    /// Largest JSON body accepted, in bytes.
    package var maxBodySize: Int = 1 << 20
    /// Largest file upload, in bytes (`maxUploadSize`; `buildApplication` copies it from the
    /// files' configuration); bounds the JavaScript SDK's base64 form.
    package var maxUploadSize: Int = 20 << 20
    /// The most sub-requests one `/batch` may carry (Parse: `requestComplexity.batchRequestLimit`).
    package var batchRequestLimit: Int = 50
    /// Path prefixes accepted in batch sub-request paths: the mount path, plus the path of
    /// `publicServerURL` when it differs.
    package var extraBatchPathPrefixes: [String] = []
    /// `Access-Control-Allow-Origin`.
    package var allowOrigin: String = "*"
    /// Rate limits (Parse's `rateLimit`); none by default here, the server adds its own.
    package var rateLimits: [RateLimiter.Rule] = []
    /// Proxies (addresses or CIDR blocks) whose `X-Forwarded-For` is believed: the client is the
    /// right-most address in it that is not one of these. From anyone else the header is ignored
    /// (it is trivially forged).
    package var trustedProxies: [String] = []
    /// The API's public URL with its mount path (`publicServerURL`, else `serverURL`): the base
    /// of a create's `Location`. Unset: the request's `Host`, which a client chooses.
    package var publicURL: String?
    /// Whether `GET /login` and `GET /verifyPassword` may carry the password in the query string
    /// (Parse's REST form); URLs end up in proxy and server logs and browser history. The
    /// `production` profile turns it off; a password in the body still works.
    package var allowPasswordInQuery: Bool = true
    /// How long a connection may make no progress before it is closed: no request, a request
    /// head not yet complete, or a body that stopped arriving; nil never closes one.
    package var idleTimeout: Duration? = .seconds(60)
    /// How long a request head may take from its first byte to its last; nil: no limit but
    /// the idle timeout. A head dribbled in a byte at a time is the Slowloris attack.
    package var headerTimeout: Duration? = .seconds(20)
    /// How long a request body may take from the head to its last byte; nil: no limit but the
    /// idle timeout. A body sent slowly but steadily never looks idle.
    package var bodyTimeout: Duration? = .seconds(300)
    /// The hosted pages' layout, style sheet and words.
    package var pages: PageTemplates = .builtIn

    /// Creates a configuration.
    package init(appId: String, masterKey: String) {
        self.appId = appId
        self.masterKey = masterKey
    }

    /// Every accepted batch path prefix.
    var batchPathPrefixes: [String] { [mountPath] + extraBatchPathPrefixes }

}
