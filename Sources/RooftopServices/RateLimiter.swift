import Foundation
import RooftopCore
package import RooftopStorage

/// Rate limits in Parse Server's `rateLimit` shape, counted in the database so every node
/// shares them. Each request is matched after `_method`, per `/batch` sub-request, on a path
/// normalized once (lowercased, percent-decoded, no trailing or doubled slashes), so none of
/// those spellings is a way around a limit.
package struct RateLimiter: Sendable {
    /// Who a limit counts.
    package enum Zone: String, Sendable, CaseIterable {
        /// The client's IP address.
        case ip
        /// The signed-in user (anonymous callers by IP).
        case user
        /// The session token (callers without one by IP).
        case session
        /// The account a request names (`username`/`email` in the body of /login,
        /// /verifyPassword, /requestPasswordReset, /verificationEmailRequest, the reset form),
        /// whatever IP it comes from.
        case account
        /// Everyone together.
        case global
    }

    /// One rule.
    package struct Rule: Sendable {
        /// A path below the mount path: exact (`/login`), or a prefix ending in `/*` (`/classes/*`).
        package var path: String
        /// Methods it applies to; empty = all.
        package var methods: Set<String>
        /// Requests allowed per window.
        package var count: Int
        /// The window, in milliseconds.
        package var window: Int64
        /// What is counted.
        package var zone: Zone
        /// Whether master-key requests count too.
        package var includeMasterKey: Bool
        /// The `error` of the 429 answer.
        package var message: String

        /// Creates a rule.
        package init(
            path: String, methods: Set<String> = [], count: Int, window: Int64, zone: Zone = .ip, includeMasterKey: Bool = false,
            message: String = "Too many requests."
        ) {
            self.path = RateLimiter.normalize(path)
            self.methods = Set(methods.map { $0.uppercased() })
            self.count = count
            self.window = window
            self.zone = zone
            self.includeMasterKey = includeMasterKey
            self.message = message
        }

        func matches(method: String, path: String) -> Bool {
            guard methods.isEmpty || methods.contains(method) else { return false }
            if self.path.hasSuffix("/*") { return path.hasPrefix(String(self.path.dropLast(1))) || path == String(self.path.dropLast(2)) }
            return path == self.path
        }
    }

    /// A request as the limiter sees it.
    package struct Request: Sendable {
        /// The effective method (after `_method`).
        package var method: String
        /// The path below the mount path, as received (normalized here).
        package var path: String
        /// The client's address (see `HTTPConfiguration.trustedProxies`).
        package var clientIP: String?
        /// The signed-in user, if any.
        package var userId: String?
        /// The session token, if any.
        package var sessionToken: String?
        /// Whether the master key was used.
        package var isMaster: Bool
        /// The account the body names (username or email, normalized), for `account` rules.
        package var account: String?
        /// The path of the route this one stands for (`/users` for `POST /classes/_User`): rules on
        /// either path count the request, each once.
        package var alias: String?

        /// Creates a request description.
        package init(
            method: String, path: String, clientIP: String?, userId: String? = nil, sessionToken: String? = nil, isMaster: Bool = false,
            account: String? = nil, alias: String? = nil
        ) {
            self.method = method.uppercased()
            self.path = path
            self.clientIP = clientIP
            self.userId = userId
            self.sessionToken = sessionToken
            self.isMaster = isMaster
            self.account = account
            self.alias = alias
        }
    }

    /// A refused request: answered 429 with `Retry-After`.
    package struct Limited: Error, Sendable {
        /// Seconds until the window ends.
        package var retryAfter: Int
        /// The answer's `error`.
        package var message: String
    }

    let rules: [Rule]
    let store: (any RateLimitStore)?
    let clock: any ServerClock
    /// Prefixes every counter's key, so two limiters over one table (the API's, the console's)
    /// never count into each other's windows.
    let namespace: String

    /// Creates a limiter; with no rules it does nothing (and touches no database).
    package init(rules: [Rule], store: any RateLimitStore, clock: any ServerClock, namespace: String = "") {
        self.rules = rules
        self.store = store
        self.clock = clock
        self.namespace = namespace
    }

    /// A limiter without rules.
    package static let off = RateLimiter(rules: [], store: nil)

    private init(rules: [Rule], store: (any RateLimitStore)?) {
        self.rules = rules
        self.store = store
        self.clock = FixedClock(millisecondsSince1970: 0)
        self.namespace = ""
    }

    /// Counts `request` under every rule it matches; throws `Limited` when one is exceeded.
    package func check(_ request: Request) async throws {
        guard !rules.isEmpty, let store else { return }
        let path = Self.normalize(request.path)
        let alias = request.alias.map(Self.normalize)
        let now = clock.now().millisecondsSince1970
        var matched: [(rule: Rule, key: String)] = []
        for (index, rule) in rules.enumerated()
        where rule.matches(method: request.method, path: path) || alias.map({ rule.matches(method: request.method, path: $0) }) == true {
            if request.isMaster && !rule.includeMasterKey { continue }
            guard let subject = subject(of: request, zone: rule.zone) else { continue }
            matched.append((rule, "\(namespace)\(index):\(rule.zone.rawValue):\(subject)"))
        }
        guard !matched.isEmpty else { return }
        // Every limit the request meets is counted in one round trip, before any is judged: a
        // request refused by one limit still counts under the others (a refused guess costs as
        // much as any).
        let counts = try await store.countRequests(matched.map { ($0.key, $0.rule.window) }, now: now)
        for ((rule, _), (count, ends)) in zip(matched, counts) where count > rule.count {
            throw Limited(retryAfter: Int(max(1, (ends - now + 999) / 1000)), message: rule.message)
        }
    }

    func subject(of request: Request, zone: Zone) -> String? {
        let ip = "ip:" + (request.clientIP ?? "unknown")
        switch zone {
        case .ip: return ip
        case .user: return request.userId.map { "user:" + $0 } ?? ip
        case .session: return request.sessionToken.map { "session:" + $0 } ?? ip
        case .account: return request.account.map { "account:" + $0 }
        case .global: return "global"
        }
    }

    /// Lowercased, percent-decoded, single slashes, no trailing slash, leading slash.
    package static func normalize(_ path: String) -> String {
        let decoded = path.removingPercentEncoding ?? path
        let segments = decoded.lowercased().split(separator: "/", omittingEmptySubsequences: true)
        return "/" + segments.joined(separator: "/")
    }
}
