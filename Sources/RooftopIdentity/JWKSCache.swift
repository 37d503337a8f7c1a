import Foundation
import JWTKit
import RooftopCore
import RooftopServices

/// One provider's signing keys, fetched from its configured JWKS address (or the `jwks_uri` of
/// its discovery document) and never from an address inside a token.
///
/// Keys are kept as long as the provider's `Cache-Control: max-age` says, within a minute and an
/// hour (an hour when it says nothing), so a key the provider removed stops being trusted when
/// the provider meant it to. A token naming an unknown key id refetches them at once (key
/// rotation), but at most once a minute, so tokens with made-up key ids can't make us hammer the
/// provider. Only RSA and P-256 signature keys are kept.
actor JWKSCache {
    /// The longest time fetched keys are trusted before the next token refetches them, and how
    /// long when the provider gives no `max-age`.
    static let maxAge: Int64 = 3_600_000
    /// The least time between two fetches: of unknown key ids, and the shortest `max-age` honoured.
    static let minimumRefetch: Int64 = 60_000

    private let issuer: String
    private var jwksURL: String?
    private let clock: any ServerClock
    private let http: ProviderHTTP
    private var keys: [String: JWK] = [:]
    private var collection = JWTKeyCollection()
    /// Until when the keys fetched last are fresh (ms since 1970).
    private var freshUntil: Int64?
    private var lastAttempt: Int64?

    /// A cache for `issuer`'s keys at `jwksURL`, or at discovery's `jwks_uri` when nil.
    init(issuer: String, jwksURL: String?, clock: any ServerClock, http: ProviderHTTP) {
        self.issuer = issuer
        self.http = http
        self.jwksURL = jwksURL
        self.clock = clock
    }

    /// The key `kid` and a collection holding it; nil when the provider doesn't have it.
    func key(_ kid: String) async throws(ProviderUnreachable) -> (JWK, JWTKeyCollection)? {
        let now = clock.now().millisecondsSince1970
        let stale = freshUntil.map { now >= $0 } ?? true
        if stale || keys[kid] == nil, lastAttempt.map({ now - $0 >= Self.minimumRefetch }) ?? true {
            lastAttempt = now
            do {
                try await refresh(now)
            } catch {
                // Keys fetched before still verify while the provider is unreachable.
                if keys.isEmpty { throw error }
            }
        }
        guard let jwk = keys[kid] else { return nil }
        return (jwk, collection)
    }

    private func refresh(_ now: Int64) async throws(ProviderUnreachable) {
        let address = try await resolvedJWKSURL()
        let answer = try await http.get(address)
        guard answer.status == 200, let entries = answer.json["keys"]?.arrayValue else { throw ProviderUnreachable() }
        var fresh: [String: JWK] = [:]
        let next = JWTKeyCollection()
        for entry in entries {
            guard let kid = entry["kid"]?.stringValue, !kid.isEmpty, let type = entry["kty"]?.stringValue, ["RSA", "EC"].contains(type),
                entry["use"].map({ $0.stringValue == "sig" }) ?? true,
                entry["alg"].map({ IDTokenVerifier.algorithms.contains($0.stringValue ?? "") }) ?? true,
                let jwk = try? JSONDecoder().decode(JWK.self, from: Data(JSONWriter.bytes(entry))),
                (try? await next.add(jwk: jwk)) != nil
            else { continue }
            fresh[kid] = jwk
        }
        keys = fresh
        collection = next
        freshUntil = now + Self.lifetime(maxAge: answer.maxAge)
    }

    /// How long keys fetched with `maxAge` (seconds, from `Cache-Control`) stay fresh, in ms:
    /// within `minimumRefetch` and `maxAge`.
    static func lifetime(maxAge seconds: Int64?) -> Int64 {
        guard let seconds else { return maxAge }
        return min(max(seconds.multipliedReportingOverflow(by: 1000).overflow ? maxAge : seconds * 1000, minimumRefetch), maxAge)
    }

    /// The configured JWKS address, or the discovery document's, which must name this issuer.
    private func resolvedJWKSURL() async throws(ProviderUnreachable) -> String {
        if let jwksURL { return jwksURL }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let answer = try await http.get(base + "/.well-known/openid-configuration")
        guard answer.status == 200, answer.json["issuer"]?.stringValue == issuer, let address = answer.json["jwks_uri"]?.stringValue,
            ProviderSettings.isAllowedEndpoint(address)
        else { throw ProviderUnreachable() }
        jwksURL = address
        return address
    }
}
