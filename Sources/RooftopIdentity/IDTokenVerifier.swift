import Crypto
import Foundation
import JWTKit
import RooftopCore
import RooftopServices

/// Checks an OpenID Connect ID token before anything is trusted: only RS256 and ES256 (so
/// `alg: none` and HMAC keyed with a public key are refused), a key id the provider's JWKS has
/// (`jku`, `x5u`, `jwk` and `x5c` headers are never read), the signature, the issuer, an
/// audience among the configured ids (and, when the token names several, an `azp` among them),
/// `exp`, `iat` and `nbf` within a minute of skew on the server's clock, the subject the client
/// named, and the nonce.
struct IDTokenVerifier: Sendable {
    /// The signature algorithms providers use; anything else is refused.
    static let algorithms: Set<String> = ["RS256", "ES256"]
    /// Allowed clock difference with the provider.
    static let skew: Int64 = 60_000

    let provider: String
    let issuers: [String]
    let audiences: [String]
    let keys: JWKSCache
    let clock: any ServerClock

    /// The token's claims, or 101 saying what failed (never quoting the token). A nil
    /// `subject` (the browser flow, where the token names the person) accepts any.
    func verify(_ token: String, subject: String?, nonce: String?) async throws(ParseError) -> IDTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.base64URLDecoded(parts[0]), let header = try? JSONParser.parse(headerBytes) else {
            throw refused("is not a JWT")
        }
        guard let alg = header["alg"]?.stringValue, Self.algorithms.contains(alg) else { throw refused("uses an algorithm that is not accepted") }
        guard let kid = header["kid"]?.stringValue, !kid.isEmpty else { throw refused("names no key") }
        let found: (JWK, JWTKeyCollection)?
        do {
            found = try await keys.key(kid)
        } catch {
            throw ParseError(.objectNotFound, "authData.\(provider) could not be validated: the provider is unreachable.")
        }
        guard let (jwk, collection) = found else { throw refused("is signed with an unknown key") }
        let keyFits = alg == "RS256" ? jwk.keyType.rawValue == "RSA" : (jwk.keyType.rawValue == "EC" && jwk.curve?.rawValue == "P-256")
        guard keyFits, jwk.algorithm.map({ $0.rawValue == alg }) ?? true else { throw refused("does not match its key") }
        let claims: IDTokenClaims
        do {
            claims = try await collection.verify(token, as: IDTokenClaims.self, expectedAudiences: audiences)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw refused("is for another audience")
        } catch {
            throw refused("has a bad signature")
        }
        guard issuers.contains(claims.iss.value) else { throw refused("comes from another issuer") }
        let now = clock.now().millisecondsSince1970
        guard Self.milliseconds(claims.exp.value) + Self.skew > now else { throw refused("has expired") }
        guard Self.milliseconds(claims.iat.value) - Self.skew <= now else { throw refused("is issued in the future") }
        if let nbf = claims.nbf.map({ Self.milliseconds($0.value) }) {
            guard nbf - Self.skew <= now else { throw refused("is not valid yet") }
            guard nbf < Self.milliseconds(claims.exp.value) else { throw refused("expires before it becomes valid") }
        }
        // OpenID Connect Core 3.1.3.7: a token for several audiences says which party it was
        // issued to, and that party must be ours.
        if claims.aud.value.count > 1 {
            guard let azp = claims.azp, audiences.contains(azp) else { throw refused("is for several audiences and not authorized for this app") }
        }
        guard subject.map({ claims.sub.value == $0 }) ?? true else { throw refused("is for another user") }
        switch (nonce, claims.nonce) {
        case (nil, nil): break
        case (let sent?, let carried?) where carried == sent || carried == Self.sha256Hex(sent): break
        case (nil, _?): throw refused("carries a nonce that was not sent")
        default: throw refused("does not carry the nonce sent")
        }
        return claims
    }

    private func refused(_ reason: String) -> ParseError {
        ParseError(.objectNotFound, "authData.\(provider) token \(reason).")
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Hex SHA-256, the form Apple and Firebase use for a hashed nonce.
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Base64url without padding, as JWTs write it.
    static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
