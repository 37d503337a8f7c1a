import Foundation
import JWTKit
import RooftopCore
import RooftopServices

/// One provider's signing keys, fetched from its configured JWKS address (or the `jwks_uri` of
/// its discovery document) and never from an address inside a token.
///
/// Keys are kept for an hour; a token naming an unknown key id refetches them (key rotation),
/// but at most once a minute, so tokens with made-up key ids can't make us hammer the provider.
/// Only RSA and P-256 signature keys are kept.
actor JWKSCache {
    /// How long fetched keys are trusted before the next token refetches them.
    static let maxAge: Int64 = 3_600_000
    /// The least time between two fetches caused by unknown key ids.
    static let minimumRefetch: Int64 = 60_000

    private let issuer: String
    private var jwksURL: String?
    private let clock: any ServerClock
    private var keys: [String: JWK] = [:]
    private var collection = JWTKeyCollection()
    private var fetchedAt: Int64?
    private var lastAttempt: Int64?

    /// A cache for `issuer`'s keys at `jwksURL`, or at discovery's `jwks_uri` when nil.
    init(issuer: String, jwksURL: String?, clock: any ServerClock) {
        self.issuer = issuer
        self.jwksURL = jwksURL
        self.clock = clock
    }

    /// The key `kid` and a collection holding it; nil when the provider doesn't have it.
    func key(_ kid: String) async throws(ProviderUnreachable) -> (JWK, JWTKeyCollection)? {
        let now = clock.now().millisecondsSince1970
        let stale = fetchedAt.map { now - $0 >= Self.maxAge } ?? true
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
        let answer = try await ProviderHTTP.get(address)
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
        fetchedAt = now
    }

    /// The configured JWKS address, or the discovery document's, which must name this issuer.
    private func resolvedJWKSURL() async throws(ProviderUnreachable) -> String {
        if let jwksURL { return jwksURL }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let answer = try await ProviderHTTP.get(base + "/.well-known/openid-configuration")
        guard answer.status == 200, answer.json["issuer"]?.stringValue == issuer, let address = answer.json["jwks_uri"]?.stringValue,
            ProviderSettings.isAllowedEndpoint(address)
        else { throw ProviderUnreachable() }
        jwksURL = address
        return address
    }
}
